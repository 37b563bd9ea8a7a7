# Sourced by .ci/run: a redis-server for the distributed-evaluation tests (Debian's package).
# `start_redis` installs it with apt-get when missing (without letting the package start a service
# of its own), starts it on a free loopback port without persistence, exports its URL as
# FLOWSCOUT_TEST_REDIS_URL and stops it by its pid when the calling script exits.

stop_redis() {
  if [ -n "${REDIS_PID:-}" ] && kill -0 "$REDIS_PID" 2>/dev/null; then
    kill "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
  fi
  REDIS_PID=
  if [ -n "${REDIS_LOG:-}" ]; then rm -f "$REDIS_LOG"; fi
}

start_redis() {
  if ! command -v redis-server >/dev/null 2>&1; then
    # A package installed here must not start a service of its own: policy-rc.d says no for the install.
    local policy=/usr/sbin/policy-rc.d added=
    if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && added=1; fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
    if [ -n "$added" ]; then rm -f "$policy"; fi
  fi
  trap stop_redis EXIT
  trap 'stop_redis; exit 130' INT
  trap 'stop_redis; exit 143' TERM
  local attempt
  for attempt in 1 2 3; do
    REDIS_PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
    REDIS_LOG="${TMPDIR:-/tmp}/flowscout-ci-redis-$REDIS_PORT.log"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no >"$REDIS_LOG" 2>&1 &
    REDIS_PID=$!
    for _ in $(seq 1 300); do
      if redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
        export FLOWSCOUT_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
        echo "redis-server pid $REDIS_PID on 127.0.0.1:$REDIS_PORT"
        return 0
      fi
      kill -0 "$REDIS_PID" 2>/dev/null || break
      sleep 0.1
    done
    echo "redis-server did not start on port $REDIS_PORT (attempt $attempt):" >&2
    tail -5 "$REDIS_LOG" >&2 || true
    stop_redis
  done
  echo "redis-server could not be started; the distributed-evaluation tests need it" >&2
  return 1
}
