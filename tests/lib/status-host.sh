# A fake host for `nfs-tuned status` (bash, sourced): status_host makes its trees under $T (an
# empty mountinfo but for /, empty mountstats, fstab and configuration $CONF, the nfsfs,
# sysfs bdi, run and udev directories) and points the NFS_TUNED_* variables at them, which
# status reads when run without privileges or by root for tests (nfs-tuned(8), ENVIRONMENT).
status_host() {
	mkdir -p "$T/nfsfs" "$T/sys/class/bdi" "$T/run/mounts" "$T/udev"
	chmod 755 "$T/run" "$T/run/mounts"
	echo "21 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw" >"$T/mountinfo"
	CONF=$T/conf
	: >"$T/mountstats" >"$CONF" >"$T/fstab"
	chmod 644 "$CONF"
	export NFS_TUNED_CONFIG=$CONF NFS_TUNED_VENDOR_CONFIG=$T/vendor \
		NFS_TUNED_MOUNTINFO=$T/mountinfo NFS_TUNED_NFSFS=$T/nfsfs NFS_TUNED_SYSFS=$T/sys \
		NFS_TUNED_RUNDIR=$T/run NFS_TUNED_FSTAB=$T/fstab NFS_TUNED_MOUNTSTATS=$T/mountstats \
		NFS_TUNED_UDEV_RULES=$T/udev/etc:$T/udev/lib NFS_TUNED_NFSMOUNT_CONF=$T/nfsmount.conf
}
