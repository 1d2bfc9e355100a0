#!/usr/bin/env bash
# Installs the programs the test suite runs that Maven cannot bring, so that `mvn -B verify` passes on a fresh
# Debian or Ubuntu machine by itself. Run by the build (pom.xml, exec-maven-plugin, phase process-test-resources);
# does nothing when every program is already there.
#   promtool (package prometheus): checks the simulator's /metrics exposition (simulator/PromtoolTest) and the
#     alert rules (monitoring/AlertRulesTest)
#   prometheus (package prometheus): scrapes a running gateway (monitoring/PrometheusScrapeTest)
#   chromium (package chromium): renders the live fleet page headless (e2e/FleetPageChromiumTest)
#   redis-server (package redis-server): the shared rate-limit store (testing/RedisServer, ratelimit tests)
#   python3's zmq and msgpack (packages python3-zmq, python3-msgpack): the Python KV-event publisher
#     (tools/kv-events/publisher.py) of the wire-format interoperability test (kvevents/KvEventInteropTest)
set -euo pipefail

declare -A wanted=([promtool]=prometheus [prometheus]=prometheus [chromium]=chromium [redis-server]=redis-server)
missing=()
for program in "${!wanted[@]}"; do
  command -v "$program" >/dev/null 2>&1 || missing+=("${wanted[$program]}")
done
# Debian's own python3 (the one its packages install into, whatever else is first on the PATH)
/usr/bin/python3 -c 'import zmq, msgpack' >/dev/null 2>&1 || missing+=(python3-zmq python3-msgpack)
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

say() { echo "provision: $*" >&2; }
if ! command -v apt-get >/dev/null 2>&1; then
  say "the tests need ${missing[*]} (Debian package names); install them, then run the build again"
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo)
else
  say "the tests need: sudo apt-get install ${missing[*]}"
  exit 1
fi
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q >/dev/null
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
