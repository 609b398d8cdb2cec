module.exports = async function globalTeardown() {
  if (globalThis.__CTS_INFRA__) await globalThis.__CTS_INFRA__.stop();
};
