# Scenario: the vendor profiles as shipped (/usr/lib/nfs-tuned.conf.d), on the real kernel: a
# service name gets its profile with nothing in /etc, read-ahead included; an admin's /etc file
# overrides one key and keeps the rest; two storage accounts behind one address are named.

# with_profiles FUNCTION: the shipped profiles in place for one check, and gone after it
with_profiles() {
	local rc
	need_helper || return
	[ -d /usr/lib/nfs-tuned.conf.d ] && { skip "/usr/lib/nfs-tuned.conf.d exists already"; return; }
	mkdir -p /usr/lib/nfs-tuned.conf.d
	cp /lab/profiles/*.conf /usr/lib/nfs-tuned.conf.d/
	echo "$SRV acct1.file.core.windows.net acct2.file.core.windows.net" >>/etc/hosts
	"$@"
	rc=$?
	rm -rf /usr/lib/nfs-tuned.conf.d
	return $rc
}

azure_files_by_name() {
	local a
	a=$(mp a)
	rm -f "$CONF"
	hrun acct1.file.core.windows.net:/export/a "$a"
	status_is 0 "no options, no /etc file" || return
	value_is "vers" "$(mi_opt "$a" vers)" 4.1 "the profile's" || return
	nconn_is "$a" 4 "the profile's" || return
	xprt_is "$a" 4 || return
	value_is "read_ahead_kb" "$(ra_of "$a")" 15360 "the profile's" || return
}
t azure-files-profile-by-name with_profiles azure_files_by_name

admin_overrides_one_key() {
	local a
	a=$(mp a)
	conf '[server "*.file.core.windows.net"]' "nconnect = 2"
	hrun acct1.file.core.windows.net:/export/a "$a" -v
	status_is 0 || return
	nconn_is "$a" 2 "the admin's key" || return
	value_is "vers" "$(mi_opt "$a" vers)" 4.1 "the profile's, kept" || return
	value_is "read_ahead_kb" "$(ra_of "$a")" 15360 "the profile's, kept" || return
	out_has "config: nconnect=2 from $CONF:2" || return
}
t admin-overrides-one-profile-key with_profiles admin_overrides_one_key

two_accounts_one_address() {
	local a b
	a=$(mp a) b=$(mp b)
	rm -f "$CONF"
	hrun acct1.file.core.windows.net:/export/a "$a"
	status_is 0 || return
	hrun acct2.file.core.windows.net:/export/b "$b"
	status_is 0 || return
	out_has "warning: acct2.file.core.windows.net shares the NFS client" || return
	out_has "$a (acct1.file.core.windows.net:/export/a), mounted under another server name" || return
	servers_is 1 "one client for both accounts" || return
}
t two-storage-accounts-one-address with_profiles two_accounts_one_address
