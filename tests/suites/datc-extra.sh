#!/bin/sh
# SPDX-License-Identifier: MIT
# datc-extra.sh — make check's suite for cases beyond the DATC (tests/datc-extra: head-to-head, jDip formats, regressions),
# through every engine: see cases.sh.
exec sh "$(dirname "$0")/cases.sh" datc-extra
