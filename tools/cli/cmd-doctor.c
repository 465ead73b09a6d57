/* fwlens doctor: run the readiness checks on a machine (snapshot or root folder). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache-options.h"
#include "cli.h"
#include "doctor-metrics.h"
#include "emit.h"
#include "output-text.h"
#include "p2p-evidence-option.h"
#include "query-writers.h"
#include "record-key.h"
#include "tools/query/profile-names.h"
#include "tools/query/doctor.h"
#include "tools/query/source.h"
#include "parsers/nearest.h"

static const char *status_color(const struct fw_cli *cli, enum fw_check_status s)
{
	switch (s) {
	case FW_CHECK_PASS: return fw_cli_color(cli, "green");
	case FW_CHECK_WARN: return fw_cli_color(cli, "yellow");
	case FW_CHECK_FAIL: return fw_cli_color(cli, "red");
	case FW_CHECK_SKIP: return fw_cli_color(cli, "dim");
	case FW_CHECK_PENDING: return fw_cli_color(cli, "cyan");
	case FW_CHECK_ACCEPTED: return fw_cli_color(cli, "dim");
	}
	return "";
}

/* "Security level 1 of 3 (HSI-like); level 2 stops at sec-dma-protection (fail)" */
static char *security_level_line(const struct fw_doctor_report *rep)
{
	json_t *l = fw_security_level_json(rep);
	const char *stop = json_string_value(json_object_get(l, "stopped_by"));
	const char *when = json_string_value(json_object_get(l, "captured"));
	char *line = fw_xasprintf("Security level %s of %lld (HSI-like, see `fwlens help doctor`), %s%s%s%s%s%s%s%s",
				  json_string_value(json_object_get(l, "text")), json_integer_value(json_object_get(l, "of")),
				  when ? "evidence captured " : "evidence read from the files as they are now",
				  when ? when : "",
				  stop ? "; the next level stops at " : "", stop ? stop : "", stop ? " (" : "",
				  stop ? json_string_value(json_object_get(l, "stopped_status")) : "", stop ? ")" : "",
				  json_is_true(json_object_get(l, "runtime_issue")) ? "; ! a runtime check failed" : "");
	json_decref(l);
	return line;
}

static void print_text(struct fw_cli *cli, const char *src, const char *profile, const struct fw_doctor_report *rep)
{
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	fprintf(f, "%sfwlens doctor%s: %s (profile %s)\n\n", b, r, src, profile);
	bool verbose = cli->verbose > 0;
	for (size_t i = 0; i < rep->count; i++) {
		const struct fw_check_result *c = &rep->results[i];
		char status[12];
		snprintf(status, sizeof(status), "%s", fw_check_status_name(c->status));
		for (char *p = status; *p; p++)
			*p = (char)(*p - 32);
		fprintf(f, "%s%-4s%s  %s%s%s  (%s)\n", status_color(cli, c->status), status, r, b, c->title, r, c->id);
		/* pass and skip stay on one line unless -v; warn and fail explain themselves */
		if (c->status == FW_CHECK_PASS || c->status == FW_CHECK_SKIP) {
			if (verbose || c->status == FW_CHECK_SKIP)
				fw_text_wrap(f, c->explanation, "      ", 100);
			if (!verbose)
				continue;
		} else {
			fw_text_wrap(f, c->explanation, "      ", 100);
		}
		size_t k;
		json_t *e;
		json_array_foreach(c->evidence, k, e)
		{
			/* where it was read, then what it says */
			char *line = fw_xasprintf("%s: %s", fw_evidence_from(e), fw_evidence_text(e));
			fw_text_wrap_hanging(f, line, "      - ", "        ", 100);
			free(line);
		}
		if (c->fix) {
			char *line = fw_xasprintf("fix: %s", c->fix);
			fw_text_wrap_hanging(f, line, "      ", "           ", 100);
			free(line);
		}
	}
	fprintf(f, "\n%zu checks: %s%zu pass%s, %s%zu warn%s, %s%zu fail%s, %zu skip", rep->count,
		status_color(cli, FW_CHECK_PASS), rep->pass, r, status_color(cli, FW_CHECK_WARN), rep->warn, r,
		status_color(cli, FW_CHECK_FAIL), rep->fail, r, rep->skip);
	/* the statuses most machines never have are named only when present */
	if (rep->pending)
		fprintf(f, ", %s%zu pending%s", status_color(cli, FW_CHECK_PENDING), rep->pending, r);
	if (rep->accepted)
		fprintf(f, ", %zu accepted", rep->accepted);
	fputc('\n', f);
	char *ready = fw_doctor_readiness_line(rep);
	char *ready_line = fw_xasprintf("Readiness: %s", ready);
	fw_text_wrap_hanging(f, ready_line, "", "  ", 100);
	free(ready_line);
	free(ready);
	if (rep->profiles & FW_PROFILE_SECURITY) {
		char *line = security_level_line(rep);
		fprintf(f, "%s%s%s\n", b, line, r);
		free(line);
	}
}

/* One table that pastes into notes: a row per check, its evidence (where it was read, then what
 * it says) and fix in cells of their own. */
static void print_markdown(struct fw_cli *cli, const char *src, const char *profile, const struct fw_doctor_report *rep,
			   const char *values_from)
{
	FILE *f = fw_cli_out(cli);
	fputs("# Doctor: ", f);
	fw_md_cell(f, src);
	fprintf(f, " (profile %s)\n\n", profile);
	fprintf(f, "%zu checks: %zu pass, %zu warn, %zu fail, %zu skip", rep->count, rep->pass, rep->warn, rep->fail,
		rep->skip);
	if (rep->pending)
		fprintf(f, ", %zu pending", rep->pending);
	if (rep->accepted)
		fprintf(f, ", %zu accepted", rep->accepted);
	fputc('.', f);
	char *ready = fw_doctor_readiness_line(rep);
	fputs(" Readiness: ", f);
	fw_md_cell(f, ready);
	fputc('.', f);
	free(ready);
	if (rep->profiles & FW_PROFILE_SECURITY) {
		char *line = security_level_line(rep);
		fputc(' ', f);
		fw_md_cell(f, line);
		fputc('.', f);
		free(line);
	}
	if (values_from) {
		fputs(" BIOS settings' current values: ", f);
		fw_md_cell(f, values_from);
		fputc('.', f);
	}
	fputs("\n\n| Status | Check | Id | What it says | Evidence | Fix |\n|---|---|---|---|---|---|\n", f);
	for (size_t i = 0; i < rep->count; i++) {
		const struct fw_check_result *c = &rep->results[i];
		fprintf(f, "| %s | ", fw_check_status_name(c->status));
		fw_md_cell(f, c->title);
		fputs(" | ", f);
		fw_md_cell(f, c->id);
		fputs(" | ", f);
		fw_md_cell(f, c->explanation);
		fputs(" | ", f);
		size_t k;
		json_t *e;
		json_array_foreach(c->evidence, k, e)
		{
			fputs(k ? "; " : "", f);
			fw_md_cell(f, fw_evidence_from(e));
			fputs(": ", f);
			fw_md_cell(f, fw_evidence_text(e));
		}
		fputs(" | ", f);
		fw_md_cell(f, c->fix);
		fputs(" |\n", f);
	}
}

/* The report, and what the writers name beside it. */
struct shown {
	struct fw_source *src;
	const struct fw_doctor_report *rep;
	struct fw_record_key *key;
	const char *profile, *source;
	bool settings; /* the checks read BIOS settings */
};

static json_t *shown_document(const void *ctx)
{
	const struct shown *s = ctx;
	json_t *doc = fw_doctor_report_json(s->rep);
	json_object_set_new(doc, "source", json_string(s->source));
	json_object_set_new(doc, "profile", json_string(s->profile));
	json_object_set_new(doc, "current_source",
			    fw_cli_json_current_source(fw_source_current(s->src), fw_source_current_text(s->src)));
	return doc;
}

/* one line per check, keyed, so the checks of a fleet can be concatenated */
static void shown_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	json_t *doc = fw_doctor_report_json(s->rep), *e;
	size_t i;
	json_array_foreach(json_object_get(doc, "checks"), i, e)
	{
		json_t *o = json_object();
		json_object_set_new(o, "profile", json_string(s->profile));
		const char *k;
		json_t *v;
		json_object_foreach(e, k, v) json_object_set(o, k, v);
		fw_cli_print_jsonl(cli, fw_record_key_wrap(s->key, o));
	}
	json_decref(doc);
}

static int shown_metrics(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	struct fw_doctor_metrics m = {s->key, s->rep, fw_source_inventory(s->src), time(NULL),
				      fw_cli_format_is(cli, "openmetrics")};
	fw_doctor_write_metrics(fw_cli_out(cli), &m);
	return 0;
}

static const struct fw_emit_writer shown_writers[] = {
	{"prometheus", shown_metrics}, {"openmetrics", shown_metrics}, {NULL, NULL}};

static void shown_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	print_text(cli, s->source, s->profile, s->rep);
	if (s->settings)
		fprintf(fw_cli_out(cli), "BIOS settings' current values: %s\n", fw_source_current_text(s->src));
}

static void shown_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	print_markdown(cli, s->source, s->profile, s->rep, s->settings ? fw_source_current_text(s->src) : NULL);
}

static int bad_accept(struct fw_cli *cli, const char *why)
{
	struct fw_error e;
	fw_error_set(&e, FW_E_INVALID, "%s", why);
	return fw_cli_fail(cli, &e);
}

/* Acceptances from the machine's etc/fwlens/accept, then --accept (later ones win). */
static int load_accepts(struct fw_cli *cli, struct fw_source *src, struct fw_doctor_accept **list, size_t *n)
{
	char err[768];
	if (src->kind == FW_SOURCE_MACHINE && src->machine) {
		char *text = fw_machine_read_text(src->machine, FW_ACCEPT_PATH);
		bool ok = !text || fw_doctor_accept_parse(text, FW_ACCEPT_PATH, list, n, err, sizeof(err));
		free(text);
		if (!ok)
			return bad_accept(cli, err);
	}
	const char *args[64];
	size_t na = fw_cli_opt_all(cli, "accept", args, 64);
	for (size_t i = 0; i < na && i < 64; i++)
		if (!fw_doctor_accept_arg(args[i], list, n, err, sizeof(err)))
			return fw_cli_usage_error(cli, "%s", err);
	for (size_t i = 0; i < *n; i++)
		if (!fw_doctor_check_known((*list)[i].check)) {
			if (strcmp((*list)[i].from, "--accept") == 0)
				return fw_cli_usage_error(cli, "--accept names no check '%s' (fwlens doctor --format json lists the ids)",
							  (*list)[i].check);
			snprintf(err, sizeof(err), "%s: no check is called '%s'", (*list)[i].from, (*list)[i].check);
			return bad_accept(cli, err);
		}
	return 0;
}

/* --accept-line CHECK: the line that accepts the check for the evidence it has now. */
static int print_accept_line(struct fw_cli *cli, const struct fw_doctor_report *rep, const char *id)
{
	for (size_t i = 0; i < rep->count; i++) {
		const struct fw_check_result *c = &rep->results[i];
		if (strcmp(c->id, id) != 0)
			continue;
		char *line = fw_doctor_accept_line(c);
		fprintf(fw_cli_out(cli), "%s\n", line);
		free(line);
		return 0;
	}
	return fw_cli_usage_error(cli, "--accept-line names no check of this run: '%s'", id);
}

static int run_doctor(struct fw_cli *cli)
{
	const char *profile = fw_cli_opt(cli, "profile") ? fw_cli_opt(cli, "profile") : "all";
	unsigned mask;
	if (!fw_doctor_profile_parse(profile, &mask)) {
		char hint[160];
		return fw_cli_usage_error(cli, "--profile takes snp-host, vfio-host, p2p-host, security or all, not '%s'%s",
					  profile, fw_profile_hint(profile, hint, sizeof(hint)));
	}
	profile = fw_profile_canonical(profile);
	enum fw_doctor_role role;
	if (!fw_doctor_role_parse(fw_cli_opt(cli, "role"), &role))
		return fw_cli_usage_error(cli, "--role takes auto, host or guest, not '%s'", fw_cli_opt(cli, "role"));
	struct fw_source src;
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_source_options so = {.image = fw_cli_opt(cli, "image"), .vars = fw_cli_opt(cli, "vars")};
	int rc = fw_cli_p2p_evidence(cli, &so);
	if (rc)
		return rc;
	rc = fw_cli_cache_setup(cli, &so);
	if (rc)
		return rc;
	if (!fw_source_open(cli->argv[0], &so, &src, &err))
		return fw_cli_fail(cli, &err);
	for (size_t i = 0; i < src.nwarnings; i++)
		fw_log_warn(cli, "%s", src.warnings[i]);
	struct fw_doctor_ctx ctx;
	fw_source_doctor_ctx(&src, mask, &ctx);
	ctx.role = role;
	struct fw_doctor_accept *accepts = NULL;
	size_t naccepts = 0;
	rc = load_accepts(cli, &src, &accepts, &naccepts);
	if (rc) {
		fw_doctor_accepts_free(accepts, naccepts);
		fw_source_close(&src);
		return rc;
	}
	ctx.accepts = accepts;
	ctx.naccepts = naccepts;
	struct fw_doctor_report rep;
	fw_doctor_run(&ctx, &rep);
	const char *line_for = fw_cli_opt(cli, "accept-line");
	if (line_for) {
		rc = print_accept_line(cli, &rep, line_for);
		fw_doctor_report_free(&rep);
		fw_doctor_accepts_free(accepts, naccepts);
		fw_source_close(&src);
		return rc;
	}
	struct fw_record_key key;
	fw_record_key_init(&key, cli->argv[0], src.kind == FW_SOURCE_MACHINE ? src.machine : NULL);
	struct shown shown = {&src, &rep, &key, profile, cli->argv[0], ctx.src.setting != NULL};
	fw_cli_emit(cli, &(struct fw_emit){"doctor", shown_document, shown_text, shown_markdown, shown_jsonl, &shown, shown_writers});
	rc = rep.fail ? FW_EXIT_DIFFERENT : 0;
	fw_record_key_free(&key);
	fw_doctor_report_free(&rep);
	fw_doctor_accepts_free(accepts, naccepts);
	fw_source_close(&src);
	return rc;
}

static const struct fw_option doctor_options[] = {
	FW_P2P_EVIDENCE_OPTION,
	{"profile", 0, "NAME", "which checks: snp-host, vfio-host, p2p-host, all (default: the three before) or security "
			       "(the older names sev-snp-host, vfio and p2p still work)", "snp-host,vfio-host,p2p-host,all,security"},
	{"role", 0, "ROLE", "judge the machine as what its CPU flags and DMI say (auto, the default), as the host under test (host: a VM with an IOMMU of its own) or as a guest", "auto,host,guest"},
	{"image", 0, "FILE", "BIOS image whose forms decode the machine's stored settings", NULL},
	{"accept", 0, "CHECK=REASON", "accept a check's warn, fail or pending verdict with a reason (repeatable; adds to the machine's etc/fwlens/accept)", NULL},
	{"accept-line", 0, "CHECK", "print the etc/fwlens/accept line that accepts CHECK for the evidence it has now, and exit", NULL},
	FW_CACHE_OPTIONS,
	{"vars", 'V', "VARS", "current values from here: anything `fwlens nvram` reads (efivarfs folder or tar, NVRAM store or volume, whole image)", NULL},
	{0},
};

FW_COMMAND(doctor,
	.synopsis = "SRC [--profile snp-host|vfio-host|p2p-host|all|security] [--role auto|host|guest] [--accept CHECK=REASON]... [--accept-line CHECK] [--p2p-evidence FILE]... [--image FILE] [--image-dir DIR] [--cache-dir DIR|--no-cache] [--format text|json|jsonl|xml|markdown|prometheus|openmetrics]",
	.summary = "Check whether a host is set up right for SEV-SNP, vfio passthrough and GPU peer-to-peer",
	.description =
		"SRC is a machine: a snapshot file, a folder laid out like a Linux root, or / for this machine. "
		"Each check reports pass, warn, fail or skip with its evidence: a list of {kind, from, text} naming the "
		"setting with its varstore offset and the variable it was read from, the kernel log line, the machine file "
		"(proc/cmdline, sys/bus/pci/devices/BDF/config, ...) or the ACPI table; a check whose input is missing says "
		"skip and why. It also has an explanation and a fix. Inside a virtual machine (hypervisor CPU flag or DMI) "
		"the host checks say skip and the guest checks (guest-snp, guest-gpus) apply; --role host judges a VM as the host under test (a VM with an IOMMU of its own, as in a lab), --role guest a machine as a guest. In a plain VM (no sign of SEV, no GPU) the guest checks say skip unless --profile snp-host or vfio-host asks for them. BIOS settings are decoded from the "
		"machine's EFI variables with the forms of the BIOS image (--image, or the image stored in the snapshot).\n\n"
		"--format prometheus (text exposition 0.0.4) and openmetrics (OpenMetrics 1.0) give one state-set gauge "
		"per check, the count of checks by status, the capture time and the BIOS, AGESA and SEV firmware versions, "
		"every sample labelled by host. node_exporter's textfile collector reads the prometheus form, not the "
		"OpenMetrics one (-o writes the file atomically).\n\n"
		"The forms and version facts decoded from a BIOS image are kept in a cache keyed by the image's SHA-256 and "
		"the fwlens version ($XDG_CACHE_HOME/fwlens, or --cache-dir; --no-cache bypasses it), so doctor on the next "
		"machine with the same BIOS does not decode the image again; a snapshot captured with --image-ref finds its "
		"image in --image-dir, or needs none when the cache has it.\n\n"
		"--profile security reports the platform's firmware protections in the manner of fwupd's Host Security "
		"ID, with the checks `snphost ok` runs: SMM lock (HWCR on every CPU), SMRAM's TSeg (SMM_ADDR and SMM_MASK "
		"on every CPU: TValid set, TClose clear), BIOS write protection and the image's signature, Secure Boot "
		"(on, user mode, PK/KEK/db, PK not a test key: PKfail), microcode against AMD-SB-7033, pre-boot DMA "
		"protection (IVRS IVinfo and the kernel's IOMMU), dbx against the published dbx releases fwlens knows "
		"(a snapshot of Microsoft's list as of 2026-07-15: BootHole and BlackLotus missing fail, later releases "
		"warn; not applicable when db trusts no Microsoft certificate), memory encryption (TSME/SME), the SEV "
		"firmware and the image's AGESA against the minimums AMD's bulletins name for the CPU (unknown CPU: "
		"skip), the SNP alias check (CVE-2024-21944), the SNP TCB, CPUID Fn8000_001F, /dev/sev and /dev/kvm "
		"access and the memlock limit. Its level: 1 when every tier-1 check "
		"passes (SMM lock, TSeg, write protection, Secure Boot, PK, microcode), 2 when tier 2 passes too (DMA "
		"protection, dbx), 3 when tier 3 passes too (memory encryption, SEV firmware, alias check, TCB); a check "
		"that warns or skips stops the level as a failure does (not known is not passed). A failed runtime check "
		"(/dev/sev, /dev/kvm, memlock, CPUID) adds '!' without lowering it. \"all\" does not include security.\n\n"
		"Verdicts are on the machine as it is now: the kernel log is read per device with each line's time (the "
		"last boot only); a GPU whose driver failed and that was re-enumerated or probed again with no error since "
		"is history (warn), an error after its latest enumeration or probe is current (fail), and the recovery "
		"names only the GPUs failing now with `fwlens plan SRC --gpu-recovery BDF[,BDF...] -o recover.sh`. A fault "
		"of a device bound to vfio-pci is its guest's. The readiness line names the role each failure touches: the "
		"SNP host, the GPUs given to VMs, the host GPUs. In a container the firmware and boot-configuration checks "
		"skip.\n\n"
		"Statuses: pass, warn, fail, skip; pending when the stored configuration for the next boot (/etc/kernel/cmdline, "
		"GRUB_CMDLINE_LINUX in /etc/default/grub, options in /etc/modprobe.d) differs from what runs now "
		"(/proc/cmdline, /sys/module/*/parameters): the evidence names both sides and the verdict changes at the "
		"next boot; accepted when an admin accepted the check.\n\n"
		"Accepting: --accept CHECK=REASON, or a line \"CHECK [sha=FINGERPRINT] REASON\" in etc/fwlens/accept of the "
		"machine's root (captured by snapshot; '#' starts a comment). An accepted check says accepted with the reason "
		"and its evidence (JSON: \"judged\" is the verdict it would have, \"accepted\" the reason) and does not count "
		"toward exit status 1. The fingerprint is the first 12 hex digits of the SHA-256 of the kinds of its evidence "
		"(each item with counts, times and long hex addresses masked): more of the same faults keep it, a new fault "
		"pair, error code or device changes it, and a line whose sha= no longer matches is reported again with both "
		"fingerprints. --accept-line CHECK prints the line for the evidence now (replace REASON). A malformed line is "
		"exit status 3 naming its line.\n\n"
		"Exit status 1 when any check fails (pending, warn, accepted and skip do not); 2 for a bad option; 3 for a "
		"bad accept file; 4 when SRC cannot be read.",
	.formats = "text,json,jsonl,xml,markdown,prometheus,openmetrics",
	.options = doctor_options,
	.examples = "fwlens doctor /\n"
		    "fwlens doctor host.fwsnap --profile p2p-host\n"
		    "fwlens doctor host.fwsnap --format prometheus -o fwlens.prom\n"
		    "fwlens doctor build/samples/sysroot-1104 --image build/samples/ESC8000A-E13-ASUS-1104.CAP --format json",
	.min_args = 1, .max_args = 1, .run = run_doctor, .order = 70);
