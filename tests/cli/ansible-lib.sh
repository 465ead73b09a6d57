# Shared by the Ansible tests (t0032, t0033), sourced after lib.sh: Ansible's own state stays in
# the test folder (no colour, no retry files), and start_bmc starts the stand-in Redfish BMC
# (redfish-bmc.py, HTTPS with a certificate made here) in $T_DIR/bmc, setting BMC (its
# address) and bmc (its process, ended when the test exits).
export ANSIBLE_HOME="$T_DIR/ansible-home" ANSIBLE_LOCAL_TEMP="$T_DIR/ansible-tmp" ANSIBLE_REMOTE_TEMP="$T_DIR/ansible-tmp"
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_FORKS=4 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_DEPRECATION_WARNINGS=0 ANSIBLE_LOCALHOST_WARNING=0 TMPDIR="$T_DIR"

start_bmc() {
	mkdir -p "$T_DIR/bmc"
	openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -keyout "$T_DIR/bmc/key.pem" \
		-out "$T_DIR/bmc/cert.pem" >/dev/null 2>&1
	python3 "$FWLENS_SRCDIR/tests/cli/redfish-bmc.py" "$T_DIR/bmc" "$T_DIR/bmc/cert.pem" "$T_DIR/bmc/key.pem" &
	bmc=$!
	trap 'kill $bmc 2>/dev/null; rm -rf "$T_DIR"' EXIT INT TERM
	i=0
	while [ ! -s "$T_DIR/bmc/port" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	BMC="127.0.0.1:$(cat "$T_DIR/bmc/port")"
}
