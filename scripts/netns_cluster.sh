#!/bin/sh
# A Dask cluster of separate network hosts on one machine, for trying `--executor dask`
# as it runs across machines: four network namespaces joined by a bridge, each with its
# own address and nothing else to talk to (no route out, the bridge has no address):
#
#   PREFIX-sch  10.251.0.1   `dask scheduler` on tcp://10.251.0.1:8786
#   PREFIX-w1   10.251.0.2   `dask worker ... --nworkers 1 --nthreads 1`
#   PREFIX-w2   10.251.0.3   the same
#   PREFIX-cli  10.251.0.4   where the command runs (the client)
#
# Needs root (namespaces, veth pairs, a bridge) and the project installed (every host
# shares this machine's files, so every worker runs this checkout).  Commands:
#
#   netns_cluster.sh up PREFIX            make the hosts and start scheduler and workers
#   netns_cluster.sh run PREFIX CMD...    run CMD on the client host
#   netns_cluster.sh kill PREFIX HOST     SIGKILL every process of HOST, cut its link
#   netns_cluster.sh start PREFIX HOST    (re)start HOST's scheduler or worker
#   netns_cluster.sh down PREFIX          kill every process, remove hosts and bridge
#
# For example (a run of 100,000 grids over the two worker hosts):
#   sudo scripts/netns_cluster.sh up dk
#   sudo scripts/netns_cluster.sh run dk python -m benchmarks run royle17 --solvers up \
#       --executor dask --scheduler tcp://10.251.0.1:8786 --out /tmp/cluster-run
#   sudo scripts/netns_cluster.sh down dk
# Logs of the scheduler and workers: /tmp/PREFIX-HOST.log.  The daemons run
# `$PYTHON -m dask` (PYTHON defaults to python3): the interpreter where the project is
# installed, which a `dask` script found first on PATH may not be.
set -eu

PYTHON="${PYTHON:-python3}"

SUBNET=10.251.0
PORT=8786
SCHEDULER="tcp://$SUBNET.1:$PORT"

address() {  # host -> its address
    case "$1" in
        sch) echo "$SUBNET.1" ;; w1) echo "$SUBNET.2" ;; w2) echo "$SUBNET.3" ;;
        cli) echo "$SUBNET.4" ;; *) echo "unknown host $1 (sch, w1, w2, cli)" >&2; exit 2 ;;
    esac
}

start() {  # prefix host: start the host's daemon in the background, its log in /tmp
    ns="$1-$2"
    log="/tmp/$1-$2.log"
    case "$2" in
        sch) set -- "$PYTHON" -m dask scheduler --host "$SUBNET.1" --port "$PORT" --no-dashboard ;;
        w1|w2) set -- "$PYTHON" -m dask worker "$SCHEDULER" --host "$(address "$2")" --nworkers 1 \
                   --nthreads 1 --no-dashboard ;;
        *) return 0 ;;
    esac
    # setsid: its own session, so that a terminal's Ctrl-C on the client reaches none
    ip netns exec "$ns" setsid "$@" >"$log" 2>&1 </dev/null &
}

kill_host() {  # prefix host: SIGKILL every process in the namespace, then cut the link
    for pid in $(ip netns pids "$1-$2" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip link set "$1-$2v" down 2>/dev/null || true
}

case "${1:-}" in
up)
    p="$2"
    ip link add "$p-br" type bridge
    ip link set "$p-br" up
    for host in sch w1 w2 cli; do
        ip netns add "$p-$host"
        ip link add "$p-${host}v" type veth peer name eth0 netns "$p-$host"
        ip link set "$p-${host}v" master "$p-br" up
        ip -n "$p-$host" addr add "$(address "$host")/24" dev eth0
        ip -n "$p-$host" link set eth0 up
        ip -n "$p-$host" link set lo up
    done
    start "$p" sch
    start "$p" w1
    start "$p" w2
    echo "scheduler $SCHEDULER; client: $0 run $p COMMAND"
    ;;
run)
    p="$2"; shift 2
    exec ip netns exec "$p-cli" "$@"
    ;;
kill)
    kill_host "$2" "$3"
    ;;
start)
    ip link set "$2-$3v" up
    start "$2" "$3"
    ;;
down)
    p="$2"
    for host in sch w1 w2 cli; do
        kill_host "$p" "$host"
        ip link del "$p-${host}v" 2>/dev/null || true  # and its peer inside the host
        ip netns del "$p-$host" 2>/dev/null || true
    done
    ip link del "$p-br" 2>/dev/null || true
    ;;
*)
    sed -n '2,27p' "$0" >&2
    exit 2
    ;;
esac
