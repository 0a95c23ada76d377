#!/bin/sh
# SPDX-License-Identifier: MIT
# datc-alt.sh — make check's suite for the DATC under its alternative chapter-4 rules (tests/datc-alt),
# through every engine: see cases.sh.
exec sh "$(dirname "$0")/cases.sh" datc-alt
