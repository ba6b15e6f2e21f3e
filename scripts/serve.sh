#!/bin/sh
# Serves the production build through Gatehouse's server (scripts/server.mjs: Next's request
# handler behind a node HTTP server, with the fast path for a human's decision; arguments as for
# `next start`, passed on) with the memory settings Gatehouse is sized and measured with:
# `npm start`, `npm run serve`, the e2e web servers and `npm run bench:gate` all start the server
# through this script.
#   MALLOC_MMAP_THRESHOLD_=32768  glibc serves allocations of 32 KB and more with mmap and unmaps
#       them when freed. Compiling PGlite's WebAssembly and V8's optimized code allocates zone
#       segments of that size from several threads; with the default (dynamic) threshold the freed
#       segments stayed in malloc's per-thread arenas: about 70 MB of the server's RSS after boot.
#   --optimize-for-size  V8 keeps a small young generation and grows the old one less eagerly:
#       about 30 MB less after boot and half the growth per paused run (bench/README.md).
#   --no-parallel-scavenge  young-generation collections run on the main thread alone. With
#       --optimize-for-size the young generation is small (1 MB semi-spaces), so while requests are
#       served a scavenge comes every few ms; run in parallel on a 2-core machine that is also
#       starting the approved command, each waited for helper threads: mean 1.45 ms, p90 2.21 ms,
#       against 0.76 and 1.04 ms on the main thread alone (bench/README.md), and decision -> tool
#       start about 1 ms lower in alternating runs.
#   NEXT_MANUAL_SIG_HANDLE=true  SIGTERM/SIGINT run Gatehouse's graceful shutdown (lib/server/shutdown.ts:
#       runs handed over, leases released, streams ended), which exits the process when done.
# exec: the server keeps this process's pid (signals from process managers, /proc for the benchmark).
# NODE selects the node binary (default: the one on PATH).
export NEXT_MANUAL_SIG_HANDLE="${NEXT_MANUAL_SIG_HANDLE:-true}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-32768}"
exec "${NODE:-node}" --optimize-for-size --no-parallel-scavenge "$(dirname "$0")/server.mjs" "$@"
