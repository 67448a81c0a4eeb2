# bench/time-of.sh: sourced by bench scripts.  time_of FILE: the wall
# time, CPU time and peak RSS that `/usr/bin/time -v` wrote to FILE.
time_of() {
	awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
			for (k = 1; k <= n; k++) s = s * 60 + t[k]; el = s }
		/User time/ { u = $2 } /System time/ { sy = $2 }
		/Maximum resident set size/ { rss = $2 }
		END { printf "%.3f s wall (%.2f s CPU), peak RSS %.1f MB", el, u + sy, rss / 1024 }' "$1"
}
