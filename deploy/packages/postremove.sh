#!/bin/sh
# After the package is removed or upgraded: a running systemd forgets the
# units that went, or reads them anew.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload >/dev/null 2>&1 || true
fi
