#!/usr/bin/env bash
# A throwaway PostgreSQL server for snapslide-server's tests and load test: Debian's
# postgresql package (installed when missing), a cluster in a folder of its own, listening on
# 127.0.0.1 only, trusting local connections, run as a non-root user (initdb refuses root).
#
#   tools/postgres-test.sh start DIR   makes and starts the cluster in DIR (a new, empty
#                                      folder), prints its URL (postgres://…) and nothing else
#                                      on standard output
#   tools/postgres-test.sh stop DIR    stops it (DIR is left; remove it after)
#
# PORT (default 55432) chooses the port. The tests read the URL from SNAPSLIDE_TEST_POSTGRES
# and make a database of their own on it for each test.
set -euo pipefail

action=${1:-}
dir=${2:-}
port=${PORT:-55432}
if [ -z "$action" ] || [ -z "$dir" ]; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi

sudo_=""
[ "$(id -u)" = 0 ] || sudo_=sudo

# The newest installed server's programs.
bin_dir() {
    local found=""
    for candidate in /usr/lib/postgresql/*/bin; do
        [ -x "$candidate/initdb" ] && found=$candidate
    done
    echo "$found"
}

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

if [ "$action" = stop ]; then
    bin=$(bin_dir)
    if [ -n "$bin" ] && [ -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    exit 0
fi

if [ -z "$(bin_dir)" ]; then
    echo "Installing PostgreSQL (Debian's postgresql)" >&2
    $sudo_ apt-get update >&2
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y --no-install-recommends postgresql >&2
fi
bin=$(bin_dir)
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 >&2
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >&2
echo "postgres://postgres@127.0.0.1:$port/postgres"
