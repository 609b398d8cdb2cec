// The built library: npm links this package by a symlink, so the path must start from here.
module.exports = require('../../dist/libs/runtime/index.js');
