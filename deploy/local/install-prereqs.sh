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

# The chart tests render with Helm (not packaged by Debian or npm: built from its Go module) and
# validate with kubernetes-validate and check-jsonschema (PyPI), pinned.
install_deploy_tools() {
  if ! command -v helm >/dev/null; then
    command -v go >/dev/null || fail "helm is missing and building it needs Go"
    echo "install-prereqs: building helm v4.3.1 from its Go module"
    GOBIN=/usr/local/bin GOFLAGS=-mod=mod go install helm.sh/helm/v4/cmd/helm@v4.3.1
  fi
  if ! command -v kubernetes-validate >/dev/null || ! command -v check-jsonschema >/dev/null; then
    echo "install-prereqs: installing kubernetes-validate and check-jsonschema (PyPI)"
    python3 -m pip install --quiet kubernetes-validate==1.37.0 check-jsonschema==0.39.0 ||
      python3 -m pip install --quiet --break-system-packages kubernetes-validate==1.37.0 check-jsonschema==0.39.0
    if command -v pyenv >/dev/null; then pyenv rehash; fi
  fi
}

# The dashboard e2e tests drive Debian's Chromium with playwright-core (it cannot download one).
install_chromium() {
  if [[ -x /usr/bin/chromium ]]; then
    return
  fi
  [[ $(id -u) -eq 0 ]] || fail "chromium is missing and installing it needs root (apt-get install chromium)"
  echo "install-prereqs: installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
}

install_redis_server
install_chromium
install_deploy_tools
check_java
check_maven
check_node
node "$script_dir/kafka.mjs" fetch >/dev/null
echo "install-prereqs: ok (redis-server, chromium, helm, kubernetes-validate, check-jsonschema, java, mvn, Kafka jars)"
