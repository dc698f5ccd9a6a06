# lab/platform.sh (sourced by lab/build, run, debs, throughput): which Debian release the lab is.
#   LAB_PLATFORM  bookworm (Debian 12, kernel 6.1; the default), trixie (Debian 13, 6.12),
#                 forky (Debian 14, 7.2): any suite with an apt template lab/apt/SUITE.list.in
#   LAB_DIR       its images and runs: build/lab for bookworm, build/lab/SUITE for another
# lab_platform_init: checks the name and sets LAB_DIR (both exported, for the scripts these
# scripts run). Each script takes `--platform NAME` for LAB_PLATFORM.
lab_platform_init() {
	local repo
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	LAB_PLATFORM=${LAB_PLATFORM:-bookworm}
	if [ ! -f "$repo/lab/apt/$LAB_PLATFORM.list.in" ]; then
		echo "lab: unknown platform '$LAB_PLATFORM' (one of: $(cd "$repo/lab/apt" &&
			ls ./*.list.in | sed 's|^\./||; s|\.list\.in$||' | tr '\n' ' '))" >&2
		exit 1
	fi
	if [ -z "${LAB_DIR:-}" ]; then
		LAB_DIR=$repo/build/lab
		[ "$LAB_PLATFORM" = bookworm ] || LAB_DIR=$LAB_DIR/$LAB_PLATFORM
	fi
	export LAB_PLATFORM LAB_DIR
}
