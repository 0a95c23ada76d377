#!/bin/sh
# SPDX-License-Identifier: MIT
# datc.sh — make check's suite for the DATC's 158 cases (tests/datc),
# through every engine: see cases.sh.
exec sh "$(dirname "$0")/cases.sh" datc
