/* fwlens plan --gpu-recovery: the recovery of GPUs whose driver failed as a POSIX shell script
 * (text and --format sh) or the plan's steps as JSON (tools/query/plan-gpu-recovery.h). The
 * script runs dry unless given --apply; the dry run only reads (the holder check, the group's
 * type). Strings from the machine reach it only as single-quoted words or one-line comments. */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "escape-shell.h"
#include "plan-gpu-recovery-write.h"
#include "tools/query/plan-gpu-recovery.h"
#include "tools/query/plan.h"

struct shown {
	const struct fw_gpu_recovery_plan *p;
	const struct fw_source *src;
};

static json_t *document(const void *ctx)
{
	const struct shown *s = ctx;
	return fw_gpu_recovery_json(s->p, s->src->path, fw_plan_made_json(s->src));
}

static const char prologue[] =
	"set -u\n"
	"ROOT=${FWLENS_ROOT:-}\n" FW_SCRIPT_APPLY_ARGUMENT
	"fail=0\n"
	"step=0\n"
	"\n"
	"show() { step=$((step + 1)); echo \"  ($step) $*\"; }\n"
	"\n"
	"# put VALUE FILE: shown, and written with --apply\n"
	"put() {\n"
	"\tshow \"echo $1 > $2\"\n"
	"\t[ \"$apply\" = 1 ] || return 0\n"
	"\tprintf '%s\\n' \"$1\" >\"$ROOT$2\"\n"
	"}\n"
	"\n"
	"# held NODE...: true when a process holds one of the nodes (a read-only walk of /proc/*/fd)\n"
	"held() {\n"
	"\tfor node in \"$@\"; do\n"
	"\t\tfor fd in \"$ROOT\"/proc/[0-9]*/fd/*; do\n"
	"\t\t\t[ -L \"$fd\" ] || continue\n"
	"\t\t\tif [ \"$(readlink \"$fd\" 2>/dev/null)\" = \"$node\" ]; then\n"
	"\t\t\t\tpid=${fd#\"$ROOT\"/proc/}\n"
	"\t\t\t\tpid=${pid%%/*}\n"
	"\t\t\t\techo \"$node is held by process $pid ($(cat \"$ROOT/proc/$pid/comm\" 2>/dev/null))\" >&2\n"
	"\t\t\t\treturn 0\n"
	"\t\t\tfi\n"
	"\t\tdone\n"
	"\t\tif [ -z \"$ROOT\" ] && [ -e \"$node\" ] && command -v fuser >/dev/null 2>&1 && fuser -s \"$node\" 2>/dev/null; then\n"
	"\t\t\techo \"$node is in use (fuser)\" >&2\n"
	"\t\t\treturn 0\n"
	"\t\tfi\n"
	"\tdone\n"
	"\treturn 1\n"
	"}\n"
	"\n"
	"klog() { dmesg 2>/dev/null || journalctl -k -q --no-pager 2>/dev/null; }\n"
	"\n"
	"# recover BDF GROUP TRANSLATED-TYPE BRIDGE MINOR FUNCTION...\n"
	"recover() {\n"
	"\tbdf=$1 group=$2 ttype=$3 bridge=$4 minor=$5\n"
	"\tshift 5\n"
	"\tstep=0\n"
	"\techo \"GPU $bdf (upstream bridge $bridge, IOMMU group ${group:-not known}):\"\n"
	"\t# the device minor as the driver says it now, else the plan's\n"
	"\tm=$(sed -n 's/^Device Minor:[[:space:]]*//p' \"$ROOT/proc/driver/nvidia/gpus/$bdf/information\" 2>/dev/null)\n"
	"\tm=${m:-$minor}\n"
	"\tnodes=\n"
	"\t[ -n \"$m\" ] && nodes=\"/dev/nvidia$m\"\n"
	"\t[ -n \"$group\" ] && nodes=\"$nodes /dev/vfio/$group\"\n"
	"\tshow \"check that no process holds ${nodes# }\"\n"
	"\t# shellcheck disable=SC2086 # one word per node\n"
	"\tif held $nodes; then\n"
	"\t\techo \"GPU $bdf is in use: not recovered (stop what holds it, then run this again)\" >&2\n"
	"\t\tfail=1; return\n"
	"\tfi\n"
	"\tif [ \"$apply\" = 1 ] && ! command -v setpci >/dev/null 2>&1; then\n"
	"\t\techo \"GPU $bdf: setpci (pciutils) is needed for the bus reset: nothing done\" >&2\n"
	"\t\tfail=1; return\n"
	"\tfi\n"
	"\tfor f in \"$@\"; do\n"
	"\t\t[ -L \"$ROOT/sys/bus/pci/devices/$f/driver\" ] || continue\n"
	"\t\tdrv=$(basename \"$(readlink \"$ROOT/sys/bus/pci/devices/$f/driver\")\")\n"
	"\t\tif [ \"$drv\" = vfio-pci ]; then\n"
	"\t\t\techo \"$f is bound to vfio-pci (a VM's device): not recovered\" >&2\n"
	"\t\t\tfail=1; return\n"
	"\t\tfi\n"
	"\t\tput \"$f\" \"/sys/bus/pci/devices/$f/driver/unbind\" || { fail=1; return; }\n"
	"\tdone\n"
	"\tif [ -n \"$group\" ] && [ \"$(cat \"$ROOT/sys/kernel/iommu_groups/$group/type\" 2>/dev/null)\" = identity ]; then\n"
	"\t\tput \"$ttype\" \"/sys/kernel/iommu_groups/$group/type\" || {\n"
	"\t\t\techo \"GPU $bdf: the kernel refused the type of group $group: not recovered\" >&2\n"
	"\t\t\tfail=1; return\n"
	"\t\t}\n"
	"\tfi\n"
	"\tbefore=0\n"
	"\t[ \"$apply\" = 1 ] && before=$(klog | wc -l)\n"
	"\tfor f in \"$@\"; do\n"
	"\t\tput 1 \"/sys/bus/pci/devices/$f/remove\" || { fail=1; return; }\n"
	"\tdone\n"
	"\tshow \"setpci -s $bridge BRIDGE_CONTROL=0x40:0x40; sleep 1; setpci -s $bridge BRIDGE_CONTROL=0x00:0x40; sleep 1\"\n"
	"\tif [ \"$apply\" = 1 ]; then\n"
	"\t\t# secondary bus reset: held at least 1 ms, then at least 1 s before the bus is used\n"
	"\t\tif ! { setpci -s \"$bridge\" BRIDGE_CONTROL=0x40:0x40 && sleep 1 &&\n"
	"\t\t\tsetpci -s \"$bridge\" BRIDGE_CONTROL=0x00:0x40 && sleep 1; }; then\n"
	"\t\t\techo \"GPU $bdf: setpci on $bridge failed; rescan, then power-cycle if the GPU stays missing\" >&2\n"
	"\t\t\tfail=1\n"
	"\t\tfi\n"
	"\tfi\n"
	"\tput 1 /sys/bus/pci/rescan || { fail=1; return; }\n"
	"\tshow \"read the kernel log (dmesg, journalctl -k) for $bdf\"\n"
	"\t[ \"$apply\" = 1 ] || return 0\n"
	"\tnew=$(klog | tail -n +\"$((before + 1))\" | grep -F \"$bdf\")\n"
	"\tif printf '%s\\n' \"$new\" | grep -Eq 'RmInitAdapter failed|probe of .* failed'; then\n"
	"\t\techo \"GPU $bdf: NOT recovered, the driver failed again:\" >&2\n"
	"\t\tprintf '%s\\n' \"$new\" | grep -E 'RmInitAdapter failed|probe of .* failed|kfsp' >&2\n"
	"\t\techo \"GPU $bdf: power-cycle the machine (cold: power off, remove AC or ipmitool chassis power cycle)\" >&2\n"
	"\t\tfail=1\n"
	"\telif [ -L \"$ROOT/sys/bus/pci/devices/$bdf/driver\" ]; then\n"
	"\t\techo \"GPU $bdf: recovered, driver $(basename \"$(readlink \"$ROOT/sys/bus/pci/devices/$bdf/driver\")\") bound, no failure logged\"\n"
	"\telse\n"
	"\t\techo \"GPU $bdf: no failure logged but no driver bound: not known (check nvidia-smi; power-cycle if it is missing)\" >&2\n"
	"\t\tfail=1\n"
	"\tfi\n"
	"}\n\n";

static int script(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	const struct fw_gpu_recovery_plan *p = s->p;
	FILE *f = fw_cli_out(cli);
	fputs("#!/bin/sh\n", f);
	fw_script_comment(f, "#", "Written by fwlens %s: recovery of %zu GPU%s of %s whose driver failed.", FWLENS_VERSION, p->n,
			  p->n == 1 ? "" : "s", s->src->path);
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_gpu_recovery *g = &p->items[i];
		fw_script_comment(f, "#", "GPU %s: %s", g->gpu->bdf, g->why);
		fw_script_comment(f, "#", "  upstream bridge %s; IOMMU group %d, %s at capture; device minor %d%s%s%s", g->bridge->bdf,
				  g->group, g->group_type ? g->group_type : "type not known", g->minor,
				  g->minor_from ? " (" : " (not known)", g->minor_from ? g->minor_from : "", g->minor_from ? ")" : "");
	}
	fputs("# Per GPU: refuse while a process holds its device nodes (/dev/nvidiaN, /dev/vfio/GROUP); unbind\n"
	      "# its functions' drivers; give an identity group its translated type back; remove the functions;\n"
	      "# reset the secondary bus of the upstream bridge (setpci BRIDGE_CONTROL bit 6, 1 s held, 1 s\n"
	      "# after); rescan; read the kernel log for the driver's result. If the GPU does not come back: a\n"
	      "# cold power cycle (power off, remove AC or ipmitool chassis power cycle, power on) always does.\n"
	      "#   sh THIS-FILE           dry run: checks the holders, shows the steps, changes nothing\n"
	      "#   sh THIS-FILE --apply   runs the steps (root)\n"
	      "# FWLENS_ROOT (default empty: /) is put before /proc, /sys paths, for a copied root.\n\n",
	      f);
	fputs(prologue, f);
	for (size_t i = 0; i < p->n; i++) {
		const struct fw_gpu_recovery *g = &p->items[i];
		char group[16] = "", minor[16] = "";
		if (g->group >= 0)
			snprintf(group, sizeof(group), "%d", g->group);
		if (g->minor >= 0)
			snprintf(minor, sizeof(minor), "%d", g->minor);
		const char *args[] = {g->gpu->bdf, group, g->translated, g->bridge->bdf, minor};
		fputs("recover", f);
		for (size_t k = 0; k < sizeof(args) / sizeof(args[0]); k++) {
			fputc(' ', f);
			fw_sh_quote(f, args[k]);
		}
		for (size_t k = 0; k < g->nfns; k++) {
			fputc(' ', f);
			fw_sh_quote(f, g->fns[k]->bdf);
		}
		fputc('\n', f);
	}
	fputs("[ \"$apply\" = 1 ] || echo \"dry run: nothing changed (give --apply)\"\nexit $fail\n", f);
	return 0;
}

static void as_text(struct fw_cli *cli, const void *ctx)
{
	script(cli, ctx);
}

static int refuse(struct fw_cli *cli, const void *ctx)
{
	(void)ctx;
	return fw_cli_usage_error(cli, "a GPU recovery plan is written as text or sh (the script) or json");
}

static const struct fw_emit_writer writers[] = {{"sh", script}, {"sce", refuse}, {"redfish", refuse},
						{"efivarfs", refuse}, {"fwupdmgr", refuse}, {"sysfs", refuse},
						{NULL, NULL}};

int fw_plan_gpu_recovery_run(struct fw_cli *cli, struct fw_source *src, const char *spec)
{
	struct fw_error err;
	fw_error_clear(&err);
	if (src->kind != FW_SOURCE_MACHINE || !src->have_host)
		return fw_cli_usage_error(cli, "--gpu-recovery needs a machine (a root folder or snapshot), not %s", src->path);
	struct fw_gpu_recovery_plan p;
	if (!fw_gpu_recovery_make(&src->host, spec, &p, &err))
		return fw_cli_fail(cli, &err);
	struct shown s = {&p, src};
	int rc = fw_cli_emit(cli, &(struct fw_emit){"plan", document, as_text, NULL, NULL, &s, writers});
	fw_gpu_recovery_free(&p);
	return rc;
}
