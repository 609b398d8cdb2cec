#!/usr/bin/env bash
# Prepares a fresh Debian 12 machine (as root, e.g. a CI runner) to run deploy/local:
# Debian's redis-server binary, a JDK 17+ and Maven (expected to be preinstalled), and the Kafka jars.
# Idempotent: a second run installs and downloads nothing.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

fail() {
  echo "install-prereqs: $*" >&2
  exit 1
}

install_redis_server() {
  if command -v redis-server >/dev/null; then
    return
  fi
  [[ $(id -u) -eq 0 ]] || fail "redis-server is missing and installing it needs root (apt-get install redis-server)"
  echo "install-prereqs: installing Debian's redis-server"
  export DEBIAN_FRONTEND=noninteractive
  forbid_service_starts
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  allow_service_starts
  # Only the binary is wanted: our scripts start their own instances on random ports, never 6379.
  if [[ -d /run/systemd/system ]]; then
    systemctl disable --now redis-server >/dev/null 2>&1 || true
  fi
}

# The package's postinst would start a system redis on 6379; policy-rc.d exit code 101 tells
# invoke-rc.d / deb-systemd-invoke not to. An existing policy (Docker images ship one) is kept.
policy_rc_d=/usr/sbin/policy-rc.d
created_policy_rc_d=false

forbid_service_starts() {
  if [[ ! -e $policy_rc_d ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy_rc_d"
    chmod +x "$policy_rc_d"
    created_policy_rc_d=true
    trap allow_service_starts EXIT
  fi
}

allow_service_starts() {
  if [[ $created_policy_rc_d == true ]]; then
    rm -f "$policy_rc_d"
    created_policy_rc_d=false
  fi
}

check_java() {
  command -v java >/dev/null || fail "java not found: install a JDK 17 or newer (Debian: openjdk-17-jdk-headless)"
  local version major
  version=$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  major=${version%%.*}
  [[ $major == 1 ]] && major=$(echo "$version" | cut -d. -f2) # "1.8.0_x" style
  [[ $major =~ ^[0-9]+$ ]] || fail "could not read the Java version from \`java -version\` (got '$version')"
  ((major >= 17)) || fail "java $version is too old: Kafka needs Java 17 or newer"
}

check_maven() {
  command -v mvn >/dev/null || fail "mvn not found: install Maven (Debian: maven); it fetches the Kafka jars"
}

check_node() {
  command -v node >/dev/null || fail "node not found: install Node 20"
}

install_redis_server
check_java
check_maven
check_node
node "$script_dir/kafka.mjs" fetch >/dev/null
echo "install-prereqs: ok (redis-server, java, mvn, Kafka jars)"
