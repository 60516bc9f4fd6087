# Shared by the apipe-run benchmarks (sourced, not run): `measure FILE
# FLAGS...` prints "compile run", the minimum over `$repeats` runs of the
# milliseconds that `apipe-run FILE FLAGS... --time` reports (compile =
# parse + lowering + JIT code generation, run = the entry's execution).
# Uses `$bin` (the directory of apipe-run), `$repeats`, and the array
# `run_flags` (extra flags for every run; empty unless the script sets it).
run_flags=("${run_flags[@]+"${run_flags[@]}"}")

measure() {
  local best_c=1e18 best_r=1e18 line c r
  for _ in $(seq "$repeats"); do
    line=$("$bin/apipe-run" "$@" "${run_flags[@]+"${run_flags[@]}"}" --time 2>&1 >/dev/null | grep '^apipe-run: compile')
    c=$(echo "$line" | sed -E 's/.*compile ([0-9.]+) ms.*/\1/')
    r=$(echo "$line" | sed -E 's/.*run ([0-9.]+) ms.*/\1/')
    best_c=$(awk -v a="$best_c" -v b="$c" 'BEGIN{print (b<a)?b:a}')
    best_r=$(awk -v a="$best_r" -v b="$r" 'BEGIN{print (b<a)?b:a}')
  done
  echo "$best_c $best_r"
}
