#!/bin/bash
# Integration cases, config: files, drop-ins and vendor profiles, their precedence, errors
# and permissions; what a user's setuid run may take from them and from fstab.
# How a file of cases runs: mount-lib.sh.
. "$(dirname "${BASH_SOURCE[0]}")/mount-lib.sh"

tc_config_precedence() {
	mkdir "$T/conf.d"
	conf '[global]' 'hard' 'rsize = 65536' 'timeo = 100' 'actimeo = 30' \
		 '[server "10.99.*"]' 'rsize = 131072' 'timeo = 200' \
		 '[mountpoint "'"$T"'/mnt/*"]' 'rsize = 262144' \
		 '[server "filer"]' 'wsize = 4096'
	printf '[global]\ntimeo = 300\nnconnect_policy = refuse\nread_ahead_kb = keep\n' > "$T/conf.d/50-late.conf"
	printf '[global]\ntimeo = 150\n' > "$T/conf.d/10-early.conf"
	printf 'garbage\n' > "$T/conf.d/ignored.txt"
	run 10.99.0.1:/e "$DIR" -o vers=3,soft,acregmin=5
	status_is 0
	opts_has rsize=262144; opts_has timeo=200; opts_has soft
	opts_lacks hard; opts_lacks wsize=4096; opts_lacks nconnect_policy=refuse
	opts_lacks read_ahead_kb=keep; opts_has acregmin=5
	# command line options come last, so the kernel's last-one-wins agrees with the precedence
	argv_all | grep -qE -- "actimeo=30.*acregmin=5" || fail "config options not before the command line's: $(argv_all)"
	run filer:/e "$DIR" -o vers=3
	opts_has wsize=4096; opts_has timeo=300
}
# a file of bad lines, each a problem of its own kind
bad_config() {
	conf '[global]' 'nconnect = 99' 'nconnect_policy = maybe' '[server]' 'hard' '[mountpoint "relative"]' \
		 'rsize = 1' '[global]' 'rsize=8192' "$(head -c 5000 /dev/zero | tr '\0' a) = 1" 'a,b' 'read_ahead_kb = 15y'
}
tc_config_errors() {
	bad_config
	newmount 0:60 "$V3NEW"
	run 10.99.0.1:/e "$DIR" -o vers=3
	status_is 0; mount_nfs_ran; opts_has rsize=8192; opts_lacks nconnect=99; opts_lacks hard
	out_has "$T/conf:2: nconnect=99: nconnect must be a number from 1 to 16, skipped"
	out_has "$T/conf:3: nconnect_policy=maybe: nconnect_policy must be warn, refuse or follow"
	out_has "$T/conf:4: section needs a pattern"
	out_has "$T/conf:6: a mount point pattern must be an absolute path"
	out_has "$T/conf:10: line of 4096 bytes or more"
	out_has "$T/conf:11: 'a,b' is not an option name"
	out_has "$T/conf:12: read_ahead_kb=15y"
}
tc_check_config_errors() {
	needs_root_check_config
	bad_config
	run --check-config; status_is 1; out_has "$T/conf:2:"
	conf '[global]' 'hard'
	run --check-config; status_is 0; grep -q "no problems" "$T/out" || fail "--check-config said: $STDOUT"
}
tc_config_permissions() {
	needs_root "the rule is root's: root's mount uses only files of root's, not writable by others (chown)"
	conf '[global]' 'nconnect_policy = refuse'
	fixture mountinfo-v3-nconnect4 nfsfs-servers-v3 nfsfs-volumes-v3
	chmod 666 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "$T/conf: not used: not owned by root or writable by group or others"
	chmod 644 "$T/conf"; chown 1:1 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "not owned by root"
	chown 0:0 "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 32
	# a drop-in directory others may write is not used either
	mkdir "$T/conf.d"; printf '[global]\nnconnect_policy = follow\n' > "$T/conf.d/x.conf"
	chmod 777 "$T/conf.d"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 32; out_has "$T/conf.d: not used: not owned by root or writable by group or others"
	run --check-config
	status_is 1; out_has "$T/conf.d: not used"
	chmod 755 "$T/conf.d"
	run 10.99.0.1:/e "$DIR" -f -o vers=3,nconnect=8
	status_is 0; out_has "following the existing client"
}
# mount_not_regular FILE...: a mount with FILEs of the configuration that are not regular files:
# it goes on, each not used and said, and nothing waits on them
mount_not_regular() {
	newmount 0:60 "$V3NEW"
	rm -f "$T/stub/argv"
	timeout 20 "$HELPER" 10.99.0.1:/e "$DIR" -o vers=3 > "$T/out" 2> "$T/err"; took $?
	status_is 0; mount_nfs_ran
	for f in "$@"; do out_has "$T/$f: not used: not a regular file"; done
	out_lacks "Invalid argument"
}
tc_config_not_regular() {
	# a FIFO would block an open() without O_NONBLOCK: every mount would hang
	rm -f "$T/conf"; mkfifo "$T/conf"
	mkdir "$T/conf.d"; mkfifo "$T/conf.d/a.conf"; mkdir "$T/conf.d/c.conf"
	mount_not_regular conf conf.d/a.conf conf.d/c.conf
}
tc_config_device_not_regular() {
	needs_root "a link from the drop-ins to /dev/zero: a user's run follows no link out of the user's own directories"
	mkdir "$T/conf.d"; ln -s /dev/zero "$T/conf.d/b.conf"
	mount_not_regular conf.d/b.conf
}
tc_empty_dropin_dir() {
	# no drop-in at all: nothing to sort (qsort of no array is undefined behaviour)
	mkdir "$T/conf.d"
	conf '[global]' 'hard'
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	status_is 0; out_lacks "runtime error"
}
tc_check_config_empty_dropin_dir() {
	needs_root_check_config
	mkdir "$T/conf.d"
	conf '[global]' 'hard'
	run --check-config
	status_is 0; out_lacks "runtime error"
}
tc_config_stray_header() {
	# a byte-order mark before the first header is not part of it
	printf '\357\273\277[server "10.99.0.9"]\nnconnect = 8\n' > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_lacks "nconnect=8"; out_lacks "warning"
	# a header behind other bytes: its options apply to nothing, least of all every mount
	printf '\342\200\213[server "10.99.0.9"]\nnconnect_policy = refuse\nnconnect = 8\n[global]\nhard\n' > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; out_lacks "nconnect=8"; out_lacks "nconnect_policy"; out_has "hard from $T/conf:5"
	out_has "is neither an option nor a section header"
}
tc_setuid_user_sees_no_root_only_config() {
	needs_root "$SETUID_NEEDS"
	unshare --mount true 2>/dev/null || { echo "SKIP: cannot create a mount namespace here"; exit 77; }
	mkdir -p "$T/suid" "$T/etc/nfs-tuned.conf.d" "$T/vendor"
	printf '[global]\nmount_nfs = /opt/hidden/mount.nfs\nread_ahead_kb = 4321\n[server "10.99.0.1"]\nsec = krb5p\nclientaddr = 10.77.7.7\nnconnect = 7\nSECRETWORD here\n' > "$T/etc/nfs-tuned.conf"
	printf '[mountpoint "/srv/*"]\nnocto\n' > "$T/etc/nfs-tuned.conf.d/open.conf"
	chmod 600 "$T/etc/nfs-tuned.conf"; chmod 755 "$T/etc" "$T/etc/nfs-tuned.conf.d" "$T" "$T/vendor"
	chmod 644 "$T/etc/nfs-tuned.conf.d/open.conf"
	printf '10.99.0.1:/e /mnt nfs user,noauto 0 0\n10.99.0.2:/e /mnt nfs users,noauto 0 0\n' > "$T/etc/fstab"
	# never the lines, other sections, the exec line's options, the program or the read-ahead
	hidden() { for w in clientaddr 10.77.7.7 SECRETWORD 4321 /opt/hidden 'vers=3,'; do out_lacks "$w"; done; }
	# root sees it all: the words the checks below look for are there to find
	as_nobody_setuid --root --check-config -v
	status_is 1; out_has "sec = krb5p"; out_has SECRETWORD; out_has "nocto"
	as_nobody_setuid --check-config -v
	status_is 1; hidden; out_lacks krb5p; out_has "1 problem in a file you cannot read; not shown"
	out_has "2 sections of files you cannot read; not shown"; out_has "nocto  (/etc/nfs-tuned.conf.d/open.conf:2)"
	as_nobody_setuid --root 10.99.0.1:/e /mnt -f -v -o vers=3
	out_has "exec: /opt/hidden/mount.nfs"; out_has "read-ahead: 4321 KiB"; out_has SECRETWORD
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3
	status_is 0; hidden; out_has "exec: mount.nfs with settings of files you cannot read; not shown"
	out_has "1 problem in a file you cannot read"; out_has "config: sections of files you cannot read apply"
	# not the policies either: the kernel shows the mount's options, not what root's files
	# would have done about them
	out_has "verdict: new client; connections: 7; the policies of files you cannot read"; out_lacks "krb5: warn"
	# what the mount itself will be told stays said: the kernel shows sec= and nconnect= of
	# every mount to every user once it is made (mount.nfs-tuned(8), SECURITY)
	out_has "sec=krb5p on an NFS client with 7 connections"
	as_nobody_setuid 10.99.0.2:/e /mnt -f -v -o vers=3
	out_has "config: sections of files you cannot read apply; not shown"
	printf '[server "10.99.0.1"]\nvers = 9SECRET\n' >> "$T/etc/nfs-tuned.conf"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v
	status_is 0; hidden; out_lacks 9SECRET; out_has "2 problems in a file you cannot read"
}
tc_setuid_user_needs_fstab_entry() {
	# as nfs-utils' mount.nfs: a user mounts only an fstab entry with this mount point, spec
	# and type and user or users, and is refused before root's configuration is read: nothing
	# of what it sets for a server can be probed with -f -v
	setuid_tree
	printf '[server "10.99.0.1"]\nnconnect = 8\nsec = krb5p\n' > "$T/etc/nfs-tuned.conf"
	chmod 600 "$T/etc/nfs-tuned.conf"
	refused() {
		status_is 1; out_has "mount.nfs-tuned: permission denied: $1"
		for w in krb5 connections section config: endpoint; do out_lacks "$w"; done
	}
	: > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v
	refused "no match for /mnt found in /etc/fstab"
	as_nobody_setuid --root 10.99.0.1:/x /mnt -f -v
	status_is 0; out_has "krb5: warn"
	# the mount point alone, or with another type, or without user: not enough
	echo "10.99.0.1:/y /mnt nfs user,noauto 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v
	refused "no match for /mnt"
	echo "10.99.0.1:/x /mnt nfs4 user,noauto 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v
	refused "no match for /mnt"
	echo "10.99.0.1:/x /mnt nfs noauto,user=alice,nousers 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v
	refused "the /etc/fstab entry for /mnt has neither user nor users"
	echo "10.99.0.1:/x /mnt nfs noauto,users 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v
	status_is 0; out_has "endpoint: 10.99.0.1:/x"
	# the helper's keys come from that entry, not from another spec's on the same mount point
	printf '10.99.0.1:/x /mnt nfs user 0 0\n10.99.0.1:/y /mnt nfs user,read_ahead_kb=4321 0 0\n' > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v -o read_ahead_kb=4321
	status_is 0; out_has "read_ahead_kb=4321 on the command line not used"
}
tc_setuid_user_checked_on_fstab_options() {
	# mount.nfs takes a user's options from the fstab entry, not from -o, and so does the
	# kernel: the helper checks those, so a user's -o cannot talk it past the admin's refuse
	setuid_tree
	printf '[global]\nkrb5_policy = refuse\n' > "$T/etc/nfs-tuned.conf"
	echo "10.99.0.1:/x /mnt nfs vers=3,sec=krb5p,nconnect=8,user,noauto 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v -o vers=3
	status_is 32; out_has "sec=krb5p on an NFS client with 8 connections"
	out_has "options: those of the /etc/fstab entry (vers=3,sec=krb5p,nconnect=8,user,noauto)"
	as_nobody_setuid 10.99.0.1:/x /mnt -f -v -o vers=3,sec=krb5p,nconnect=8
	status_is 32; out_has "sec=krb5p on an NFS client with 8 connections"
	# root's own run takes -o as given
	as_nobody_setuid --root 10.99.0.1:/x /mnt -f -v -o vers=3
	status_is 0; out_lacks "krb5p"
}
tc_setuid_user_cannot_hide_the_config() {
	command -v prlimit >/dev/null || { echo "SKIP: no prlimit"; exit 77; }
	# a user's own limits (few file descriptors) make root's reads of the configuration fail:
	# whatever the limit, the admin's refuse stands or nothing is mounted
	setuid_tree "$T/etc/nfs-tuned.conf.d"
	printf '[global]\nkrb5_policy = refuse\n' > "$T/etc/nfs-tuned.conf"
	printf '[global]\nnconnect_policy = refuse\n' > "$T/etc/nfs-tuned.conf.d/10-a.conf"
	echo "10.99.0.1:/x /mnt nfs vers=3,sec=krb5p,nconnect=8,user,noauto 0 0" > "$T/etc/fstab"
	local n passed=
	for n in $(seq 4 16); do
		SUID_PREFIX="prlimit --nofile=$n" as_nobody_setuid 10.99.0.1:/x /mnt -f -v
		case $RC in
		0) fail "with $n file descriptors the user's mount went on: $OUT" ;;
		32) passed="$passed $n" ;;
		esac
	done
	# with enough descriptors, the policy itself refuses
	[ -n "$passed" ] || fail "no limit let the helper read the configuration and refuse"
}
tc_setuid_umount_names_no_path_of_roots() {
	# mount_nfs set in a 0600 drop-in of a 0700 directory: a user's umount.nfs (or mount) that
	# cannot run it says so without naming the path
	setuid_tree "$T/etc/nfs-tuned.conf.d"
	printf '[global]\nmount_nfs = /opt/SECRETDIR/mount.nfs\n' > "$T/etc/nfs-tuned.conf.d/10-p.conf"
	chmod 600 "$T/etc/nfs-tuned.conf.d/10-p.conf"; chmod 700 "$T/etc/nfs-tuned.conf.d"
	local who
	for who in nobody root; do
		if [ "$who" = root ]; then SUID_NAME=umount.nfs as_nobody_setuid --root /mnt
		else SUID_NAME=umount.nfs as_nobody_setuid /mnt; fi
		status_is 2
		if [ "$who" = nobody ]; then out_lacks SECRETDIR; out_has "cannot run the real mount.nfs [path not shown: root's configuration]"
		else out_has /opt/SECRETDIR/mount.nfs; fi
	done
}
tc_setuid_check_config_hides_unlisted() {
	# a 0600 file's undefined profile, and the names in a 0700 drop-in directory, are root's
	setuid_tree "$T/etc/nfs-tuned.conf.d"
	printf '[global]\nprofile = OTHERSECRET\n' > "$T/etc/nfs-tuned.conf"
	printf '[global]\nprofile = DROPSECRET\n' > "$T/etc/nfs-tuned.conf.d/secretname.conf"
	chmod 600 "$T/etc/nfs-tuned.conf" "$T/etc/nfs-tuned.conf.d/secretname.conf"
	printf '[global]\nhard\n' > "$T/etc/nfs-tuned.conf.d/othername.conf"
	chown 65534:65534 "$T/etc/nfs-tuned.conf.d/othername.conf"
	chmod 700 "$T/etc/nfs-tuned.conf.d"
	as_nobody_setuid --root --check-config -v
	status_is 1; out_has OTHERSECRET; out_has DROPSECRET; out_has "file: /etc/nfs-tuned.conf.d/secretname.conf"
	out_has "/etc/nfs-tuned.conf.d/othername.conf: not used: not owned by root"
	as_nobody_setuid --check-config -v
	status_is 1; out_lacks OTHERSECRET; out_lacks DROPSECRET; out_lacks secretname; out_lacks othername
	out_has "1 problem in files you cannot read; not shown"
	out_has "1 file of directories you cannot list; not shown"; out_has "file: /etc/nfs-tuned.conf"
	out_has "2 problems in files you cannot read; not shown"
	# a mount the fstab entry allows says no more of them
	echo "10.99.0.1:/x /mnt nfs user 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/x /mnt -f
	status_is 0; out_lacks OTHERSECRET; out_lacks DROPSECRET; out_lacks secretname
}
tc_config_dropin_link_through_users_dir() {
	needs_root "a directory of another user's (chown), and the rule root's mount follows"
	# a drop-in linked into a directory a user owns: that user can point it at any file of
	# root's (here a shadow-format one) and the parse problems would quote its lines
	printf 'root:$6$HASHSECRET:19000:0:99999:7:::\n' > "$T/shadow"; chmod 600 "$T/shadow"
	mkdir -p "$T/conf.d" "$T/user"; chown 65534:65534 "$T/user"
	ln -s "$T/shadow" "$T/user/x.conf"; chown -h 65534:65534 "$T/user/x.conf"
	ln -s "$T/user/x.conf" "$T/conf.d/x.conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	status_is 0; out_lacks HASHSECRET
	out_has "$T/conf.d/x.conf: not used: $T/user is owned by uid 65534, not root: every directory and link on the way must be root's"
	run --check-config
	status_is 1; out_lacks HASHSECRET; out_has "$T/conf.d/x.conf: not used: $T/user is owned by uid 65534"
}
tc_config_problems_capped() {
	# a file of bad lines: the first 50 said, the rest counted, on every mount and in
	# --check-config (a 1 MiB one gave 524,031 warnings, 1.3 s and 64 MB a mount)
	for i in $(seq 1 400); do echo "bad line $i"; done > "$T/conf"
	run 10.99.0.1:/e "$DIR" -f -o vers=3
	status_is 0; value_is "warnings" "$(grep -c 'warning:' "$T/err")" 51
	out_has "$T/conf:50: 'bad line 50'"; out_lacks "$T/conf:51:"
	out_has "warning: 350 more configuration problems not shown; fix them: mount.nfs-tuned --check-config"
}
tc_check_config_problems_capped() {
	needs_root_check_config
	for i in $(seq 1 400); do echo "bad line $i"; done > "$T/conf"
	run --check-config
	status_is 1; value_is "lines" "$(wc -l < "$T/err")" 51; out_has "350 more problems not shown (the first 50 are)"
}
tc_setuid_fstab_through_users_dir() {
	# a user's run takes helper keys from its fstab entry: an fstab reached through a directory
	# that user owns is theirs to write, so it gives none
	setuid_tree "$T/u"
	echo "10.99.0.1:/e /mnt nfs user,noauto,read_ahead_kb=4321 0 0" > "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 0; out_lacks "not used"
	# an fstab of someone else's, or one others may write, lets no user mount anything
	chown 65534:65534 "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 1; out_has "permission denied: no match for /mnt found in /etc/fstab"
	chown 0:0 "$T/etc/fstab"; chmod 666 "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 1; out_has "permission denied: no match for /mnt found in /etc/fstab"
	chmod 644 "$T/etc/fstab"
	mv "$T/etc/fstab" "$T/u/fstab"; chown -R 65534:65534 "$T/u"; ln -s "$T/u/fstab" "$T/etc/fstab"
	as_nobody_setuid 10.99.0.1:/e /mnt -f -v -o vers=3,read_ahead_kb=4321
	status_is 1; out_has "permission denied: no match for /mnt found in /etc/fstab"; out_lacks "endpoint"
}
# the vendor's files, one broken, and /etc's
layers() {
	vendor 10-image.conf '[global]' 'nconnect = 4' 'hard' 'timeo = 300'
	vendor 20-site.conf '[global]' 'actimeo = 30' 'retrans = 5'
	# a broken vendor file: its bad line is reported with file:line, the rest applies
	vendor 30-broken.conf '[global]' 'nconnect_policy = sometimes' 'rsize = 65536'
	conf '[global]' 'nconnect = 8'
}
# a file of the same name in /etc masks the vendor's (an empty one, or a link to /dev/null)
masks() { mkdir "$T/conf.d"; : > "$T/conf.d/20-site.conf"; ln -s /dev/null "$T/conf.d/30-broken.conf"; }
tc_layered_config() {
	layers
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0
	# per key: /etc's nconnect wins, the vendor's other keys stay
	out_has "exec: $STUB 10.99.0.1:/e $DIR -v -o hard,timeo=300,actimeo=30,retrans=5,rsize=65536,nconnect=8,vers=3"
	out_has "config: nconnect=8 from $T/conf:2"; out_has "config: hard from $T/vendor/10-image.conf:3"
	out_has "$T/vendor/30-broken.conf:2: nconnect_policy=sometimes"
	masks
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	status_is 0; opts_lacks actimeo=30; opts_lacks rsize=65536; out_lacks "30-broken.conf:2"
	# /etc's drop-ins come after /etc/nfs-tuned.conf, the vendor's before it
	printf '[global]\nnconnect = 2\n' > "$T/conf.d/90-last.conf"
	run 10.99.0.1:/e "$DIR" -f -v -o vers=3
	out_has "config: nconnect=2 from $T/conf.d/90-last.conf:2"
}
tc_check_config_layers() {
	needs_root_check_config
	layers; masks
	run --check-config -v
	status_is 0
	grep -qF "file: $T/vendor/20-site.conf: masked by $T/conf.d/20-site.conf" "$T/out" || fail "no masking shown: $(cat "$T/out")"
	grep -qF "    timeo = 300  ($T/vendor/10-image.conf:4)" "$T/out" || fail "no origin shown: $(cat "$T/out")"
}
shipped_profiles() { mkdir -p "$T/vendor"; cp "$FIXTURES"/../../profiles/*.conf "$T/vendor/"; }
tc_profiles_shipped() {
	shipped_profiles
	# a service name gets its profile with nothing in /etc
	run acct1.file.core.windows.net:/acct1/share "$DIR" -f -v -o sec=sys
	status_is 0
	out_has "-o vers=4.1,nconnect=4,sec=sys"; out_has "read-ahead: 15360 KiB"
	out_has "config: profile=azure-files from $T/vendor/60-services.conf:5"
	out_has "[profile \"azure-files\"] applies"
	run fs-12345678.efs.eu-west-1.amazonaws.com:/ "$DIR" -f -v
	status_is 0
	out_has "-o vers=4.1,rsize=1048576,wsize=1048576,hard,timeo=600,retrans=2,noresvport"
	out_has "read-ahead: 15 x the effective rsize"
	# an admin's key overrides the profile's and keeps the rest; a server names another profile
	conf '[server "*.file.core.windows.net"]' 'nconnect = 2' '[server "10.99.0.1"]' 'profile = azure-netapp-files'
	run acct1.file.core.windows.net:/acct1/share "$DIR" -f -v
	out_has "-o vers=4.1,nconnect=2"; out_has "read-ahead: 15360 KiB"
	run 10.99.0.1:/vol1 "$DIR" -f -v -o vers=3
	out_has "-v -o nconnect=8,rsize=262144,wsize=262144,hard,vers=3"
	# the profile's krb5 rule: refuse
	run 10.99.0.1:/vol1 "$DIR" -f -o vers=3,sec=krb5p
	status_is 32; out_has "refusing to mount: sec=krb5p"
}
tc_check_config_profiles() {
	needs_root_check_config
	# every shipped profile file parses without a problem
	shipped_profiles
	run --check-config
	status_is 0
	# a profile nobody defined is a configuration error, with its line
	conf '[server "10.99.0.1"]' 'profile = azure-netap-files'
	run --check-config
	status_is 1; out_has "$T/conf:2: profile azure-netap-files is not defined"
}

run_cases "$@"
