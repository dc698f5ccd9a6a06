# Scenario: sec=krb5* on a client with more than one connection (DESIGN.md "Policies").
# No KDC is needed: a refusal happens before mount.nfs runs; warnings are checked with -f.

krb5_refused() { # SEC NCONNECT(on the krb5 mount) FIRST(nconnect of an earlier sec=sys mount, or "")
	local a b
	need_helper || return
	a=$(mp a) b=$(mp b)
	conf "[global]" "krb5_policy = refuse"
	if [ -n "$3" ]; then
		hrun $SRV:/export/a "$a" -o "vers=4.1,sec=sys,nconnect=$3"
		status_is 0 || return
	fi
	hrun $SRV:/export/b "$b" -o "vers=4.1,sec=$1${2:+,nconnect=$2}"
	status_is 32 "sec=$1 on a multi-connection client" || return
	out_has refusing || return
	out_has 'krb5' || return
	not_mounted "$b" || return
	servers_is "$([ -n "$3" ] && echo 1 || echo 0)" "mount.nfs never ran" || return
}
t krb5-nconnect4-refused krb5_refused krb5 4 ""
t krb5i-nconnect2-refused krb5_refused krb5i 2 ""
t krb5p-nconnect16-refused krb5_refused krb5p 16 ""
t krb5-inherited-nconnect-refused krb5_refused krb5 "" 4

# one connection: nothing to refuse (dry run: no KDC here to really mount)
krb5_single() {
	local b
	need_helper || return
	b=$(mp b)
	conf "[global]" "krb5_policy = refuse"
	hrun -f -v $SRV:/export/b "$b" -o vers=4.1,sec=krb5
	status_is 0 "a single connection is fine" || return
	out_lacks refusing || return
	not_mounted "$b" || return
}
t krb5-single-connection-allowed krb5_single

# warn (the default): a warning, the mount would go ahead (dry run)
krb5_warn() {
	local b
	need_helper || return
	b=$(mp b)
	hrun -f -v $SRV:/export/b "$b" -o vers=4.1,sec=krb5,nconnect=4
	status_is 0 "krb5_policy = warn (default)" || return
	out_has 'warning:' || return
	out_lacks refusing || return
	not_mounted "$b" || return
}
t krb5-warn-default krb5_warn

# a config default nconnect makes the client multi-connection too
krb5_config() {
	local b
	need_helper || return
	b=$(mp b)
	conf "[global]" "nconnect = 4" "krb5_policy = refuse"
	hrun $SRV:/export/b "$b" -o vers=4.1,sec=krb5
	status_is 32 "nconnect=4 from the config" || return
	out_has refusing || return
	not_mounted "$b" || return
}
t krb5-config-nconnect-refused krb5_config
