#!/bin/sh
# Names the build nginx serves, for the API cache's keys (default.conf.template): writes
# NGINX_BUILD_CONF, a map giving $lattice_build the resolved SITE_ROOT (<DIST_DIR>/builds/<id>/site),
# and reloads nginx when a rebuild swaps the `current` link. nginx could resolve the link on
# every request ($realpath_root), but that costs a readlink per path component of every cache hit.
#
#   follow-build.sh --write           write the map once
#   follow-build.sh --watch [ARGS]    write it, then every second: if the link moved, rewrite it
#                                     and run `nginx ARGS -s reload` (old workers finish their
#                                     requests; the cache zone is kept)
#                                     (until the process FOLLOW_WHILE_PID, if set, is gone)
#   follow-build.sh                   as an entrypoint script of the nginx image
#                                     (/docker-entrypoint.d): write now, watch in the background
set -eu
: "${SITE_ROOT:?SITE_ROOT names <DIST_DIR>/current/site}"
: "${NGINX_BUILD_CONF:?NGINX_BUILD_CONF names the map file to write}"

write() {
    # Written aside and renamed, so that a reload never reads half a file.
    printf '# Written by follow-build.sh: the build nginx serves.\nmap "" $lattice_build {\n    default "%s";\n}\n' "$1" > "$NGINX_BUILD_CONF.tmp"
    mv "$NGINX_BUILD_CONF.tmp" "$NGINX_BUILD_CONF"
}

case "${1:-}" in
    --write)
        write "$(readlink -f "$SITE_ROOT")"
        ;;
    --watch)
        shift
        build=$(readlink -f "$SITE_ROOT")
        write "$build"
        while sleep 1; do
            if [ -n "${FOLLOW_WHILE_PID:-}" ] && ! kill -0 "$FOLLOW_WHILE_PID" 2>/dev/null; then exit 0; fi
            now=$(readlink -f "$SITE_ROOT") || continue
            [ "$now" = "$build" ] && continue
            write "$now"
            nginx "$@" -s reload && build=$now
        done
        ;;
    *)
        write "$(readlink -f "$SITE_ROOT")"
        "$0" --watch &
        ;;
esac
