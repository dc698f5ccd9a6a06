# Shared by the cost scripts (meson's benchmarks; bash, sourced): clock, units, growth.
now() { date +%s%N; }
ms() { echo "$1 / 1000000" | bc -l; }
# growth T PREV COUNT PCOUNT: " (xG per 10x)" from time PREV at PCOUNT to T at COUNT; "" first
growth() {
	[ -n "$2" ] || return 0
	printf ' (x%.1f per 10x)' "$(echo "e(l($1 / $2) * l(10) / l($3 / $4))" | bc -l)"
}
