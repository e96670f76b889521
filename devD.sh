#!/bin/bash
B=.devpack/build; O=$OUT
echo "[$(date +%T)] ctest b"
timeout 470 ctest --test-dir $B -L gpu -j1 --timeout 300 -I 691, > $O/ctest_b.txt 2>&1; echo rc $?; grep -E 'tests passed|Total Test' $O/ctest_b.txt
echo "[$(date +%T)] done"
