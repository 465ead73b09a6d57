/* fwlens plan: the change set that puts settings where a diagnosis says they must be, in the
 * forms the admin's tools take, and its verification after the reboot. */
#include <stdarg.h>
#include <string.h>

#include "cache-options.h"
#include "emit.h"
#include "escape-shell.h"
#include "parsers/file.h"
#include "plan-amisce.h"
#include "plan-fwattrs-write.h"
#include "plan-gpu-recovery-write.h"
#include "plan-kernel-arg-write.h"
#include "plan-writers.h"
#include "tools/query/plan-kernel-arg.h"
#include "tools/query/plan-p2p.h"
#include "tools/query/profile-names.h"
#include "tools/query/say-once.h"
#include "query-writers.h"
#include "tools/query/doctor.h"
#include "tools/query/topics.h"

#define MAX_SETS 256

/* Log the candidates of an ambiguous SETTING, one per line. */
static void log_candidates(struct fw_cli *cli, const struct fw_plan *p)
{
	for (size_t i = 0; i < p->ncandidates; i++) {
		const struct fw_setting *st = p->candidates[i];
		plan_say(cli, "candidate: %s  |  module %s  |  %s  |  %s+0x%X/%u%s%s", st->prompt,
			     st->fp->module->name ? st->fp->module->name : "?", st->npaths ? st->paths[0] : "(no menu)",
			     st->varstore_name, st->q->bit_field ? st->q->bit_offset / 8 : st->q->var_info, st->q->width,
			     st->keyword ? "  |  keyword " : "", st->keyword ? st->keyword : "");
	}
}

static int plan_error(struct fw_cli *cli, struct fw_plan *p, struct fw_error *err)
{
	int rc = fw_cli_fail(cli, err);
	log_candidates(cli, p);
	return rc;
}

/* The goals of failing BIOS checks: every profile goal naming the check. */
static bool from_doctor(struct fw_cli *cli, struct fw_plan *p, const struct fw_topics *t, const char *module,
			struct fw_error *err)
{
	struct fw_doctor_ctx ctx;
	fw_source_doctor_ctx(p->src, FW_PROFILE_ALL, &ctx);
	struct fw_doctor_report rep;
	fw_doctor_run(&ctx, &rep);
	bool ok = true;
	size_t taken = 0;
	for (size_t i = 0; i < rep.count && ok; i++) {
		const struct fw_check_result *r = &rep.results[i];
		if (r->status != FW_CHECK_FAIL)
			continue;
		bool known = false;
		for (size_t k = 0; k < t->nprofiles && ok; k++)
			for (size_t g = 0; g < t->profiles[k].ngoals && ok; g++) {
				const struct fw_profile_goal *goal = &t->profiles[k].goals[g];
				if (!goal->check || strcmp(goal->check, r->id) != 0)
					continue;
				known = true;
				char *why = fw_xasprintf("doctor check %s fails: %s", r->id, r->explanation ? r->explanation : r->title);
				ok = fw_plan_add_goal(p, goal->prompt, goal->value, goal->has_min, goal->min, module, why, r->id, err);
				free(why);
				taken++;
			}
		if (!known && strncmp(r->id, "bios-", 5) == 0)
			fw_log_warn(cli, "doctor check %s fails, and no profile goal says which setting fixes it", r->id);
	}
	if (ok && !taken)
		fw_log_info(cli, "doctor: no failing BIOS check on %s", p->src->path);
	fw_doctor_report_free(&rep);
	return ok;
}

/* The result of doctor check `id` when it passes, else NULL. */
static const struct fw_check_result *check_passing(const struct fw_doctor_report *rep, const char *id)
{
	for (size_t i = 0; id && i < rep->count; i++)
		if (strcmp(rep->results[i].id, id) == 0)
			return rep->results[i].status == FW_CHECK_PASS ? &rep->results[i] : NULL;
	return NULL;
}

__attribute__((format(printf, 2, 3))) static void plan_note(struct fw_plan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_say_once(&p->notes, &p->nnotes, fmt, ap);
	va_end(ap);
}

/* An entry requested by --set or brought in as a dependency satisfies the doctor check of any
 * profile goal for the same setting and value. */
static void name_checks(struct fw_plan *p, const struct fw_topics *t)
{
	for (size_t i = 0; i < p->n; i++) {
		struct fw_plan_entry *e = &p->entries[i];
		for (size_t k = 0; k < t->nprofiles && !e->check; k++)
			for (size_t g = 0; g < t->profiles[k].ngoals && !e->check; g++) {
				const struct fw_profile_goal *goal = &t->profiles[k].goals[g];
				char a[256], b[256];
				if (!goal->check || strcmp(fw_topic_normalise(goal->prompt, a, sizeof(a)),
							   fw_topic_normalise(e->st->prompt, b, sizeof(b))) != 0)
					continue;
				bool met = goal->has_min && e->value >= goal->min;
				char vals[256];
				snprintf(vals, sizeof(vals), "%s", goal->value);
				for (char *save = NULL, *tok = strtok_r(vals, "|", &save); tok && !met; tok = strtok_r(NULL, "|", &save)) {
					uint64_t v;
					struct fw_error err;
					met = fw_plan_parse_value(e->st, tok, &v, &err) && v == e->value;
				}
				if (met)
					e->check = goal->check;
			}
	}
}

/* What --verify found: each planned value now, and the doctor checks the plan names. */
struct verified {
	struct fw_source *src;
	const char *path;
	const struct fw_verify *v;
	const struct fw_doctor_report *rep;
	const char *const *checks;
	size_t nchecks;
};

static json_t *verified_document(const void *ctx)
{
	const struct verified *s = ctx;
	json_t *doc = json_object(), *arr = json_array();
	json_object_set_new(doc, "source", json_string(s->src->path));
	json_object_set_new(doc, "plan", json_string(s->path));
	json_object_set_new(doc, "current_source",
			    fw_cli_json_current_source(fw_source_current(s->src), fw_source_current_text(s->src)));
	for (size_t i = 0; i < s->v->n; i++) {
		const struct fw_verify_item *it = &s->v->items[i];
		json_t *o = json_object();
		json_object_set_new(o, "prompt", json_string(it->prompt));
		json_object_set_new(o, "varstore", json_string(it->varstore));
		json_object_set_new(o, "offset", json_integer(it->offset));
		json_object_set_new(o, "width", json_integer(it->width));
		json_object_set_new(o, "want", json_string(it->want_text));
		json_object_set_new(o, "now", it->has_now ? json_string(it->now_text) : json_null());
		json_object_set_new(o, "state", json_string(fw_verify_state_name(it->state)));
		json_object_set_new(o, "why", it->why ? json_string(it->why) : json_null());
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "entries", arr);
	json_object_set_new(doc, "failed", json_integer((json_int_t)s->v->failed));
	json_object_set_new(doc, "rebooted", s->v->rebooted < 0 ? json_null() : json_boolean(s->v->rebooted));
	json_object_set_new(doc, "rebooted_why", json_string(s->v->rebooted_why));
	json_t *doc_checks = json_array();
	for (size_t i = 0; i < s->nchecks; i++)
		for (size_t r = 0; r < s->rep->count; r++)
			if (strcmp(s->rep->results[r].id, s->checks[i]) == 0) {
				json_t *o = json_object();
				json_object_set_new(o, "id", json_string(s->checks[i]));
				json_object_set_new(o, "status", json_string(fw_check_status_name(s->rep->results[r].status)));
				json_array_append_new(doc_checks, o);
			}
	json_object_set_new(doc, "doctor", doc_checks);
	return doc;
}

/* one document either way: a verification is not a stream of records */
static int verified_as_json(struct fw_cli *cli, const void *ctx)
{
	fw_cli_print_json(cli, verified_document(ctx));
	return 0;
}

static const struct fw_emit_writer verified_writers[] = {{"jsonl", verified_as_json}, {NULL, NULL}};

static void verified_text(struct fw_cli *cli, const void *ctx)
{
	const struct verified *s = ctx;
	FILE *f = fw_cli_out(cli);
	/* prompts and values come from the plan file and the machine: one line each */
	fw_put_visible_format(f, "Verify %s against %s (values from %s)", s->path, s->src->path, s->v->current_source);
	fputc('\n', f);
	/* the reason quotes boot ids and times read from the machine */
	fw_put_visible_format(f, "rebooted since the plan: %s (%s)", s->v->rebooted < 0 ? "not known" : s->v->rebooted ? "yes" : "no",
			      s->v->rebooted_why);
	fputc('\n', f);
	for (size_t i = 0; i < s->v->n; i++) {
		const struct fw_verify_item *it = &s->v->items[i];
		fw_put_visible_format(f, "  %-10s %s = %s (planned %s)%s%s", fw_verify_state_name(it->state), it->prompt,
				      it->has_now ? it->now_text : "?", it->want_text, it->why ? ": " : "", it->why ? it->why : "");
		fputc('\n', f);
	}
	fprintf(f, "%zu of %zu planned values in effect\n", s->v->n - s->v->failed, s->v->n);
	for (size_t i = 0; i < s->nchecks; i++)
		for (size_t r = 0; r < s->rep->count; r++)
			if (strcmp(s->rep->results[r].id, s->checks[i]) == 0)
				fprintf(f, "doctor %s: %s\n", s->checks[i], fw_check_status_name(s->rep->results[r].status));
}

static int run_verify(struct fw_cli *cli, struct fw_source *src, const char *path)
{
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_file file;
	if (!fw_file_read(path, 64u << 20, &file, &err))
		return fw_cli_fail(cli, &err);
	json_error_t je;
	json_t *plan = json_loadb((const char *)file.data, file.len, 0, &je);
	fw_file_close(&file);
	if (!plan) {
		fw_error_set(&err, FW_E_INVALID, "%s: not JSON (%s at line %d)", path, je.text, je.line);
		return fw_cli_fail(cli, &err);
	}
	const char *kind = json_string_value(json_object_get(plan, "kind"));
	if (kind && strcmp(kind, "kernel-args") == 0) {
		int rc = fw_plan_karg_verify(cli, src, path, plan);
		json_decref(plan);
		return rc;
	}
	struct fw_verify v;
	bool ok = fw_plan_verify(src, plan, &v, &err);
	/* doctor reruns on the same SRC: the checks the plan said it satisfies */
	const char *checks[FW_PLAN_MAX_ENTRIES];
	size_t nchecks = 0;
	size_t k;
	json_t *e;
	json_array_foreach(json_object_get(plan, "entries"), k, e)
	{
		const char *c = json_string_value(json_object_get(e, "check"));
		bool seen = !c;
		for (size_t i = 0; i < nchecks && !seen; i++)
			seen = strcmp(checks[i], c) == 0;
		if (!seen && nchecks < FW_PLAN_MAX_ENTRIES)
			checks[nchecks++] = c;
	}
	struct fw_doctor_report rep = {0};
	if (ok && nchecks) {
		struct fw_doctor_ctx ctx;
		fw_source_doctor_ctx(src, FW_PROFILE_ALL, &ctx);
		fw_doctor_run(&ctx, &rep);
	}
	if (!ok) {
		json_decref(plan);
		return fw_cli_fail(cli, &err);
	}
	if (v.warning)
		fw_log_warn(cli, "%s", v.warning);
	struct verified shown = {src, path, &v, &rep, checks, nchecks};
	fw_cli_emit(cli, &(struct fw_emit){"verify", verified_document, verified_text, NULL, NULL, &shown, verified_writers});
	int rc = !v.failed ? 0 : v.failed == v.pending ? FW_EXIT_PENDING : FW_EXIT_DIFFERENT;
	fw_verify_free(&v);
	if (rep.results)
		fw_doctor_report_free(&rep);
	json_decref(plan);
	return rc;
}

/* A change set, in the forms the admin's tools take. */
struct planned {
	struct fw_plan *p;
	const char *profile, *hii_crc, *registry;
	const struct fw_p2p_acs_plan *acs; /* p2p-host: ACS redirect off between host GPUs, or NULL */
};

static json_t *planned_document(const void *ctx)
{
	const struct planned *s = ctx;
	json_t *doc = fw_plan_json(s->p, s->profile);
	if (s->acs)
		json_object_set_new(doc, "kernel_args", fw_p2p_acs_plan_json(s->acs));
	return doc;
}

/* The kernel option of the p2p-host profile, and the command that writes its script. */
static void acs_text(struct fw_cli *cli, const struct planned *s)
{
	FILE *f = fw_cli_out(cli);
	const struct fw_p2p_acs_plan *a = s->acs;
	fputs("\nKernel option (profile p2p-host): ", f);
	if (a->unknown)
		fputs("not known: ", f);
	else if (!a->option)
		fputs("none needed: ", f);
	else
		fw_put_visible_format(f, "%s%s", a->option, a->running ? "  (on the running command line already)" : "");
	if (a->option && !a->unknown)
		fputs("\n      why: ", f);
	fw_put_visible(f, a->why);
	fputc('\n', f);
	if (a->option && !a->running && !a->unknown) {
		fputs("      write it: fwlens plan ", f);
		fw_sh_quote(f, s->p->src->path);
		fputs(" --kernel-arg ", f);
		fw_sh_quote(f, a->option);
		fputs(" -o acs.sh\n", f);
	}
}

static void planned_jsonl(struct fw_cli *cli, const void *ctx)
{
	const struct planned *s = ctx;
	for (size_t i = 0; i < s->p->n; i++)
		fw_cli_print_jsonl(cli, fw_plan_entry_json(s->p, i));
}

static void planned_text(struct fw_cli *cli, const void *ctx)
{
	const struct planned *s = ctx;
	fw_plan_write_text(cli, s->p);
	if (s->acs)
		acs_text(cli, s);
}

static int planned_sce(struct fw_cli *cli, const void *ctx)
{
	const struct planned *s = ctx;
	return fw_plan_write_sce(cli, s->p, s->hii_crc);
}

static int planned_redfish(struct fw_cli *cli, const void *ctx)
{
	const struct planned *s = ctx;
	return fw_plan_write_redfish(cli, s->p, s->registry);
}

static int planned_efivarfs(struct fw_cli *cli, const void *ctx)
{
	return fw_plan_write_efivarfs(cli, ((const struct planned *)ctx)->p);
}

static int planned_not_fwattrs(struct fw_cli *cli, const void *ctx)
{
	return fw_cli_usage_error(cli, "--format fwupdmgr and sysfs are for hosts whose settings are firmware-attributes");
}

static const struct fw_emit_writer planned_writers[] = {
	{"sce", planned_sce}, {"redfish", planned_redfish}, {"efivarfs", planned_efivarfs},
	{"fwupdmgr", planned_not_fwattrs}, {"sysfs", planned_not_fwattrs}, {NULL, NULL}};

static int run_plan(struct fw_cli *cli)
{
	const char *sets[MAX_SETS];
	size_t nsets = fw_cli_opt_all(cli, "set", sets, MAX_SETS);
	const char *profile = fw_cli_opt(cli, "profile"), *verify = fw_cli_opt(cli, "verify");
	const char *module = fw_cli_opt(cli, "module"), *registry = fw_cli_opt(cli, "registry");
	bool doctor = fw_cli_flag(cli, "from-doctor");
	const char *kargs[FW_KARG_MAX + 1], *krm[FW_KARG_MAX + 1];
	size_t nkargs = fw_cli_opt_all(cli, "kernel-arg", kargs, FW_KARG_MAX + 1);
	size_t nkrm = fw_cli_opt_all(cli, "remove-kernel-arg", krm, FW_KARG_MAX + 1);
	const char *recovery = fw_cli_opt(cli, "gpu-recovery");
	if (!verify && !nsets && !profile && !doctor && !nkargs && !nkrm && !recovery)
		return fw_cli_usage_error(cli, "say what to plan: --set SETTING=VALUE, --profile NAME, --from-doctor, "
					       "--kernel-arg OPT, --gpu-recovery failed|BDF (or --verify PLAN.json)");
	if ((nkargs || nkrm) && (verify || nsets || profile || doctor || recovery))
		return fw_cli_usage_error(cli, "--kernel-arg and --remove-kernel-arg make a plan of their own: give them "
					       "without --set, --profile, --from-doctor, --gpu-recovery and --verify");
	if (recovery && (verify || nsets || profile || doctor))
		return fw_cli_usage_error(cli, "--gpu-recovery makes a plan of its own: give it without --set, --profile, "
					       "--from-doctor and --verify");
	if (!(nkargs || nkrm || recovery) && fw_cli_format_is(cli, "sh"))
		return fw_cli_usage_error(cli, "--format sh is for --kernel-arg and --gpu-recovery plans");
	if (registry && !fw_cli_format_is(cli, "redfish"))
		return fw_cli_usage_error(cli, "--registry is for --format redfish");
	for (size_t i = 0; i < nsets; i++)
		if (!strchr(sets[i], '=') || sets[i][0] == '=')
			return fw_cli_usage_error(cli, "--set takes SETTING=VALUE, not '%s'", sets[i]);
	struct fw_topics topics = {0};
	struct fw_error err;
	fw_error_clear(&err);
	const struct fw_profile *prof = NULL;
	bool all_profiles = false;
	if (!verify) {
		if (!fw_topics_load(NULL, &topics, &err))
			return fw_cli_fail(cli, &err);
		/* the names doctor takes (profile-names.h); all: every profile's goals */
		const char *canon = profile ? fw_profile_canonical(profile) : NULL;
		if (canon && strcmp(canon, "security") == 0) {
			fw_topics_free(&topics);
			return fw_cli_usage_error(cli, "--profile security reports the platform's protections and has no BIOS "
						       "goals to plan: give snp-host, vfio-host, p2p-host or all");
		}
		all_profiles = canon && strcmp(canon, "all") == 0;
		if (profile && !all_profiles && !(prof = canon ? fw_topics_profile(&topics, canon) : NULL)) {
			char hint[160];
			fw_topics_free(&topics);
			return fw_cli_usage_error(cli, "--profile takes snp-host, vfio-host, p2p-host or all, not '%s'%s", profile,
						  fw_profile_hint(profile, hint, sizeof(hint)));
		}
		if (canon)
			profile = canon;
	}
	struct fw_source src;
	struct fw_source_options so = {.image = fw_cli_opt(cli, "image"), .lang = fw_cli_opt(cli, "lang"),
				       .vars = fw_cli_opt(cli, "vars")};
	int crc = fw_cli_cache_setup(cli, &so); /* the cache, --image-dir */
	if (crc) {
		fw_topics_free(&topics);
		return crc;
	}
	if (!fw_source_open(cli->argv[0], &so, &src, &err)) {
		fw_topics_free(&topics);
		return fw_cli_fail(cli, &err);
	}
	int rc = 0;
	if (verify) {
		rc = run_verify(cli, &src, verify);
		goto out;
	}
	if (nkargs || nkrm) {
		rc = fw_plan_karg_run(cli, &src, kargs, nkargs, krm, nkrm);
		goto out;
	}
	if (recovery) {
		rc = fw_plan_gpu_recovery_run(cli, &src, recovery);
		goto out;
	}
	struct fw_setlist *listed = src.kind == FW_SOURCE_MACHINE ? fw_source_setlist(&src) : NULL;
	if (listed && src.list_from_fwattrs) { /* no forms: the kernel driver's settings */
		if (prof || doctor)
			rc = fw_cli_usage_error(cli, "--profile and --from-doctor need the BIOS forms; %s exposes its settings "
						     "through firmware-attributes: give --set NAME=VALUE", cli->argv[0]);
		else
			rc = fw_plan_fwattrs_run(cli, &src, sets, nsets, module);
		goto out;
	}
	if (src.kind == FW_SOURCE_LIST && src.have_amisce) { /* an export on its own: its questions, no forms */
		rc = prof || doctor ? fw_cli_usage_error(cli, "--profile and --from-doctor need the BIOS forms: give the image, "
								"with --vars %s for the current values", cli->argv[0])
				    : fw_plan_amisce_run(cli, &src, sets, nsets);
		goto out;
	}
	struct fw_plan p;
	if (!fw_plan_init(&p, &src, &err)) {
		rc = fw_cli_fail(cli, &err);
		goto out;
	}
	bool ok = true;
	for (size_t i = 0; i < nsets && ok; i++) {
		char *setting = fw_xstrdup(sets[i]);
		char *eq = strchr(setting, '=');
		*eq = '\0';
		char *why = fw_xasprintf("requested: --set %s", sets[i]);
		ok = fw_plan_add(&p, setting, eq + 1, module, why, NULL, &err);
		free(why);
		free(setting);
	}
	/* a goal whose doctor check passes on SRC as it is stays out of the plan */
	struct fw_doctor_report goal_checks = {0};
	bool checked = false; /* doctor runs once, when a goal first adds an entry */
	for (size_t k = 0; ok && (prof || all_profiles) && k < topics.nprofiles; k++) {
		const struct fw_profile *pk = all_profiles ? &topics.profiles[k] : prof;
		for (size_t g = 0; ok && g < pk->ngoals; g++) {
			const struct fw_profile_goal *goal = &pk->goals[g];
			char *why = fw_xasprintf("profile %s: %s", pk->name, goal->why ? goal->why : goal->prompt);
			size_t before = p.n;
			ok = fw_plan_add_goal(&p, goal->prompt, goal->value, goal->has_min, goal->min, module, why, goal->check, &err);
			free(why);
			if (ok && p.n > before && goal->check && !checked) {
				struct fw_doctor_ctx dctx;
				fw_source_doctor_ctx(&src, FW_PROFILE_ALL, &dctx);
				fw_doctor_run(&dctx, &goal_checks);
				checked = true;
			}
			const struct fw_check_result *passed = ok && p.n > before ? check_passing(&goal_checks, goal->check) : NULL;
			if (passed) {
				p.n = before;
				plan_note(&p, "%s: not planned, doctor check %s passes: %s", goal->prompt, passed->id,
					  passed->explanation ? passed->explanation : passed->title);
			}
		}
		if (!all_profiles)
			break;
	}
	if (goal_checks.results)
		fw_doctor_report_free(&goal_checks);
	if (ok && doctor)
		ok = from_doctor(cli, &p, &topics, module, &err);
	if (ok)
		ok = fw_plan_resolve(&p, &err);
	if (ok)
		name_checks(&p, &topics);
	for (size_t i = 0; i < src.nwarnings; i++)
		fw_log_warn(cli, "%s", src.warnings[i]);
	if (!ok) {
		rc = plan_error(cli, &p, &err);
		fw_plan_free(&p);
		goto out;
	}
	struct fw_p2p_acs_plan acs;
	bool with_acs = (all_profiles || (prof && strcmp(prof->name, "p2p-host") == 0)) && src.have_host;
	if (with_acs) {
		fw_p2p_acs_plan_make(&src.host, &acs);
		bool text_like = fw_cli_format_is(cli, "text") || fw_cli_format_is(cli, "json") || fw_cli_format_is(cli, "jsonl");
		if (!text_like && acs.option && !acs.running && !acs.unknown)
			fw_log_warn(cli, "profile p2p-host also needs the kernel option %s: fwlens plan %s --kernel-arg '%s' -o acs.sh",
				    acs.option, src.path, acs.option);
	}
	struct planned shown = {&p, profile, src.hii_crc, registry, with_acs ? &acs : NULL};
	rc = fw_cli_emit(cli, &(struct fw_emit){"plan", planned_document, planned_text, NULL, planned_jsonl, &shown, planned_writers});
	if (with_acs)
		fw_p2p_acs_plan_free(&acs);
	fw_plan_free(&p);
out:
	fw_source_close(&src);
	fw_topics_free(&topics);
	return rc;
}

static const struct fw_option plan_options[] = {
	{"set", 's', "SETTING=VALUE", "a setting (prompt, x-UEFI keyword or VARSTORE+0xOFFSET) and its value (option text or "
				      "value, or a number within the limits); repeat for more", NULL},
	{"profile", 'p', "NAME", "plan toward the goal states of a profile of the rules file: snp-host, vfio-host, p2p-host or "
				 "all (the names doctor takes; sev-snp-host, vfio and p2p still work)", "snp-host,vfio-host,p2p-host,all"},
	{"from-doctor", 0, NULL, "plan the fixes of the BIOS checks doctor finds failing on SRC", NULL},
	{"kernel-arg", 0, "OPT[=VALUE]", "a kernel command line option to add (replacing other values of it) in the "
					"boot loader SRC uses; repeat for more", NULL},
	{"gpu-recovery", 0, "BDF[,BDF]", "the recovery of GPUs whose driver failed (failed instead of BDFs: every one the "
						   "kernel log names) as a script", NULL},
	{"remove-kernel-arg", 0, "OPT[=VALUE]", "a kernel command line option to remove (a name: every occurrence)", NULL},
	{"module", 'm', "NAME|GUID", "look settings up in this module only (two CBS modules, one prompt in two places)", NULL},
	{"image", 0, "FILE", "for a machine: the BIOS image whose forms decode its variables (default: stored in the snapshot)", NULL},
	FW_CACHE_OPTIONS,
	{"vars", 'V', "VARS", "current values from here: efivarfs folder or tar, NVRAM store, volume or image, AMISCE export, "
			      "saved Redfish Bios resource", NULL},
	{"registry", 0, "FILE", "redfish: check names and values against the BMC's BIOS AttributeRegistry (JSON)", NULL},
	{"verify", 0, "PLAN.json", "compare the values a plan (--format json) wanted with SRC's: exit 0 when all are in effect", NULL},
	{"lang", 'l', "LANG", "display language of setup strings (default en-US)", NULL},
	{0},
};

FW_COMMAND(plan,
	.synopsis = "SRC [--set SETTING=VALUE]... [--profile NAME] [--from-doctor] [--kernel-arg OPT[=VAL]]... "
		    "[--remove-kernel-arg OPT]... [--gpu-recovery failed|BDF[,BDF...]] [--verify PLAN.json] [--module NAME] "
		    "[--vars VARS] [--format text|json|jsonl|sce|redfish|efivarfs|fwupdmgr|sysfs|sh]",
	.summary = "Plan setting changes (with what hides or locks them) as an AMISCE script, Redfish body or efivarfs script",
	.description =
		"SRC is a BIOS image, a machine (snapshot or root folder, with --image or the image stored in the snapshot), "
		"or an image with current values from --vars. SETTING is a prompt (case and surrounding blanks ignored), an "
		"x-UEFI keyword (AMI's x-UEFI-AMI strings, the names AMI BMCs publish as Redfish BIOS attributes) or "
		"VARSTORE+0xOFFSET; when several settings match, exit status 2 lists each with its module, menu path and "
		"offset, and --module picks one. Of CBS modules made per CPU generation (CbsSetupDxeSTP Zen 4, "
		"CbsSetupDxeSHP Zen 5) the one matching the machine's CPU (proc/cpuinfo) or holding the variables is "
		"picked, with a note saying why; when neither tells, a profile plans each, labelled with its module. "
		"VALUE is an option's text or value, or a number within min/max/step.\n\n"
		"--profile snp-host, vfio-host, p2p-host or all plans toward the goal states in the rules file (the profile "
		"names doctor takes; the older sev-snp-host, vfio and p2p still work, and a mistyped one gets a suggestion); "
		"--from-doctor takes the fixes of the BIOS checks doctor finds failing on SRC.\n\n"
		"--kernel-arg OPT[=VALUE] and --remove-kernel-arg OPT[=VALUE] plan kernel command line options on a machine "
		"(root folder or snapshot): the boot loader is told from its files (etc/kernel/cmdline with Proxmox: "
		"proxmox-boot-tool refresh; etc/default/grub: GRUB_CMDLINE_LINUX_DEFAULT and update-grub; etc/kernel/cmdline "
		"without Proxmox or systemd-boot entries: kernel-install), and when both a cmdline file and GRUB's are there, "
		"the one holding the running options wins; the output says which and why. An added option replaces other "
		"values of the same name ('-' and '_' alike), but pci= and console= sub-options are kept apart as the kernel "
		"reads each. The text form (and --format sh) is a POSIX shell script: a dry run unless given --apply, which "
		"saves a backup, writes the planned lines beside the file and renames them over it, reads them back and runs "
		"the loader's command; lines that are neither the plan's old nor its new text refuse the plan, and a plan "
		"already in place says \"already set\" and exits 0. FWLENS_ROOT prefixes the paths (a copied root). --format "
		"json records the options, loader, file, edits and when the plan was made, for --verify after the reboot.\n\n"
		"--gpu-recovery failed|BDF[,BDF...] writes, for each GPU whose driver failed (failed: every one the kernel log "
		"names whose driver is still unbound), a script that refuses while a process holds /dev/nvidiaN or "
		"/dev/vfio/GROUP (a read-only walk of /proc/*/fd, and fuser), unbinds its functions, sets an identity IOMMU "
		"group back to the machine's translated type, removes the functions, resets the secondary bus of the "
		"upstream bridge (setpci BRIDGE_CONTROL bit 6, held 1 s, then 1 s), rescans and reads the kernel log for the "
		"driver's result, naming the cold power cycle when it fails again. A GPU whose driver works, a device that is "
		"not a GPU and a bridge whose reset would hit other devices are refused (exit 2). --format json lists the "
		"steps.\n\n"
		"The conditions around each planned setting (suppress-if, gray-out-if, disable-if) are evaluated with the "
		"planned values: a question that hides or locks it is brought in first with the reason (SMEE Auto -> Enable "
		"before SEV Control and the ASID limit become settable); a contradiction is an error (exit 2). Each entry "
		"names the question, module, varstore name and GUID, offset, width, old and new value (text and bytes), where "
		"the old value came from, why it is in the plan and the doctor check it satisfies.\n\n"
		"SRC may be an AMISCE export on its own: --set resolves among its questions (keyword, prompt or 0xTOKEN) and "
		"--format sce writes the export with only the planned * marks and Value numbers moved (text and json list "
		"the changes; the export holds no conditions to follow).\n\n"
		"Forms: sce is an AMISCE script for SCEWIN_64 /i /s FILE or SCELNX_64 /i /s FILE (only the planned questions); "
		"a question whose prompt, keyword, option or default text the format cannot carry as it is (a line break, "
		"another control character, bytes that are not UTF-8) refuses it with exit status 5 naming the setting. "
		"redfish is the body of a PATCH to the BMC's Bios/Settings resource, names being the keywords, or with "
		"--registry mapped through the BMC's registry (keyword, keyword without its CPU-generation suffix, display "
		"name and menu path, prompt numbered with the question id or offset; a planned setting it lacks is exit "
		"status 3 naming it); two settings with one name are exit status 5 naming both. efivarfs is a POSIX shell "
		"script that, per variable, checks the current bytes equal "
		"the plan's old bytes, saves a backup, lifts the immutable flag, writes attributes and data in one write "
		"and reads back (a dry run unless given --apply, which creates no file; variables without runtime access "
		"are refused); firmware text appears in it only in one-line comments with visible escapes. fwlens "
		"itself writes nothing.\n\n"
		"A machine without BIOS forms whose kernel driver exposes its settings through the firmware-attributes "
		"class (Dell, Lenovo, HP) is planned from those: SETTING is an attribute's name or display name, VALUE one of "
		"its possible values, a number within its limits or a string within its lengths; --format fwupdmgr writes a "
		"script of `fwupdmgr set-bios-setting` calls, --format sysfs one of current_value writes, each checking the "
		"current value first and a dry run unless given --apply.\n\n"
		"--verify PLAN.json compares a saved JSON plan with SRC after the reboot: exit 0 when every planned value "
		"is in effect, 1 listing each that is not (hidden, locked or different; for a kernel option plan, the "
		"options against proc/cmdline). A value stored as planned is in effect only once SRC has booted since the plan "
		"was made (its boot id, else its boot time, against the plan's): before that it is \"not yet rebooted\", "
		"and where SRC does not tell when it booted, \"stored, boot not known\"; when those are the only values not "
		"in effect the exit status is 6 (stored, not yet in effect).\n\n"
		"The efivarfs, fwupdmgr and sysfs scripts, run again once their values are in place, say \"already set\" "
		"and exit 0.",
	.formats = "text,json,jsonl,sce,redfish,efivarfs,fwupdmgr,sysfs,sh",
	.options = plan_options,
	.examples = "fwlens plan host.fwsnap --profile snp-host  # what to change for SEV-SNP, in order\n"
		    "fwlens plan BIOS.CAP --set 'SEV-ES ASID Space Limit=100' --format json > plan.json\n"
		    "fwlens plan host.fwsnap --from-doctor --format sce -o plan.txt  # then SCELNX_64 /i /s plan.txt\n"
		    "fwlens plan host.fwsnap --profile snp-host --format redfish --registry registry.json\n"
		    "fwlens plan / --image BIOS.CAP --profile snp-host --format efivarfs -o apply.sh  # sh apply.sh --apply\n"
		    "fwlens plan host.fwsnap --verify plan.json  # after the reboot\n"
		    "fwlens plan / --kernel-arg 'pci=disable_acs_redir=0000:22:00.0;0000:22:01.0' -o acs.sh  # sh acs.sh --apply\n"
		    "fwlens plan gpu-host.fwsnap --gpu-recovery failed -o recover.sh  # sh recover.sh, then sh recover.sh --apply",
	.min_args = 1, .max_args = 1, .run = run_plan, .order = 72);
