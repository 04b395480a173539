#!/bin/sh
# Before the package is removed, not upgraded: stop gamedata's units and
# disable them, so that no unit an operator enabled is left behind as a
# link to a file that is gone. dpkg runs this as "prerm remove" ("prerm
# upgrade" on an upgrade), rpm as "%preun 0" ("%preun 1"). systemctl
# disable works without a running systemd too (a container, a chroot).
case "$1" in
remove | 0) ;;
*) exit 0 ;;
esac
units="gamedata-exporter.service gamedata-sync.timer gamedata-sync.service"
if [ -d /run/systemd/system ]; then
  systemctl stop $units >/dev/null 2>&1 || true
fi
systemctl --no-reload disable $units >/dev/null 2>&1 || true
