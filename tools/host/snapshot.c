/* Machine snapshots: capture (root folder -> archive) and load (archive -> machine). */
#include "snapshot.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include "parsers/json-text.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "machine.h"
#include "parsers/decompress.h"
#include "parsers/file.h"
#include "parsers/guid.h"
#include "parsers/env.h"
#include "parsers/hash.h"
#include "parsers/json-skim.h"
#include "parsers/tar.h"
#include "firmware-attributes.h"
#include "p2p-capture.h"
#include "p2p-proof.h"
#include "sev-probe.h"
#include "parsers/strmap.h"

/* --- what a capture reads -------------------------------------------------------------------- */

/* Setup-related efivars: the names settings are bound from, the defaults stores, Secure Boot. */
static const char *const wanted_var_names[] = {
	"*Setup*", "AMD_PBS_SETUP", "StdDefaults", "MfgDefaults",
	"SecureBoot", "SetupMode", "AuditMode", "DeployedMode", "PK", "KEK", "db", "dbx", "dbt", "dbr",
	"BootOrder", "BootCurrent", "Timeout", "PlatformLang", "OsIndications*", "CbsVariable*", "Pbs*",
	NULL,
};
/* Varstore GUIDs whose variables are all kept (AMI Setup, AMD CBS, AMD PBS, AMI server setup). */
static const char *const wanted_var_guids[] = {
	"ec87d643-eba4-4bb5-a1e5-3f3e36b20da9", "3a997502-647a-4c82-998e-52ef9486a247",
	"a339d746-f678-49b3-9fc7-54ce0f9df226", "01239999-fc0e-4b6e-9e79-d54d5db6cd20", NULL,
};
/* DMI attributes kept (serial numbers and UUIDs are left out on purpose). */
static const char *const dmi_names[] = {
	"bios_vendor", "bios_version", "bios_date", "bios_release", "ec_firmware_release", "board_vendor",
	"board_name", "board_version", "product_name", "product_family", "product_version", "product_sku",
	"sys_vendor", "chassis_vendor", "chassis_type", "chassis_version", NULL,
};
static const char *const proc_files[] = {
	"proc/cmdline", "proc/version", "proc/sys/kernel/osrelease", "proc/sys/kernel/hostname", "proc/cpuinfo",
	"proc/iomem",
	/* which boot was captured: a plan's verification compares only after a reboot */
	"proc/sys/kernel/random/boot_id", "proc/stat", NULL,
};
/* Where the kernel command line and module options are configured. */
static const char *const boot_files[] = {"etc/kernel/cmdline", "etc/default/grub", NULL};
static const char *const boot_dirs[] = {"etc/modprobe.d", "etc/modules-load.d", NULL};
static const char *const pci_files[] = {
	"config", "class", "vendor", "device", "subsystem_vendor", "subsystem_device", "revision", "numa_node",
	"resource", "current_link_speed", "current_link_width", "max_link_speed", "max_link_width", "local_cpulist",
	"enable",
	/* the PSP's security attributes (ccp driver, sysfs-driver-ccp), read by doctor --profile security */
	"tsme_status", "rom_armor_enforced", "rpmc_production_enabled", "rpmc_spirom_available", "fused_part",
	"debug_lock_on", "anti_rollback_status", "hsp_tpm_available", NULL,
};
static const char *const pci_links[] = {"iommu_group", "driver", NULL};

struct member {
	char *path;
	char *from;
	const char *kind;
	uint8_t *data;
	size_t len;
	bool is_link;
	char *target; /* machine-relative */
};

/* What a snapshot may hold: members (the manifest is one), their bytes, the bytes of one member.
 * Capture and load read it from one place, so what capture takes is always what load accepts;
 * FWLENS_LIMITS may lower each (parsers/env.h). */
struct budget {
	uint64_t members, bytes, member;
};

static struct budget snapshot_budget(void)
{
	struct budget b = {fw_env_limit("snapshot-members", FW_SNAPSHOT_MAX_MEMBERS),
			   fw_env_limit("snapshot-bytes", FW_SNAPSHOT_MAX_TOTAL),
			   fw_env_limit("snapshot-member", FW_MACHINE_FILE_CAP)};
	return b;
}

struct capture {
	const struct fw_capture_options *o;
	struct fw_machine *m;
	struct member *members;
	size_t count, cap;
	json_t *unreadable;
	json_t *nodes;
	struct fw_capture_stats *stats;
	struct fw_strlist varstores; /* names of the varstores the image's forms declare */
	struct fw_file dmesg;        /* --dmesg, read before anything else */
	struct fw_strmap seen;       /* "device:inode" of every file and folder taken -> its first path */
	unsigned long over_budget;   /* files left out for the budget past the ones named */
	struct budget budget;        /* the loader's */
};
/* Files named in the unreadable list once the budget is reached; the rest are counted. */
#define CAPTURE_BUDGET_NOTES 100

static struct member *add_member(struct capture *c)
{
	if (c->count == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 256;
		c->members = fw_xrealloc(c->members, c->cap * sizeof(*c->members));
	}
	struct member *m = &c->members[c->count++];
	memset(m, 0, sizeof(*m));
	return m;
}

/* Manifest paths: JSON strings are UTF-8, file names are bytes. A name that is not UTF-8 enters
 * as it is and leaves the manifest as U+FFFD with its raw bytes in hex under `key`_hex
 * (parsers/json-text.h), so the entry is kept and the name recoverable. */
static void set_path(json_t *obj, const char *key, const char *raw)
{
	json_object_set_new(obj, key, json_string(raw));
}

char *fw_snapshot_json_path(const json_t *obj, const char *key)
{
	char *hkey = fw_xasprintf("%s_hex", key);
	const char *hex = json_string_value(json_object_get(obj, hkey));
	free(hkey);
	if (!hex) {
		const char *v = json_string_value(json_object_get(obj, key));
		return v ? fw_xstrdup(v) : NULL;
	}
	size_t n = strlen(hex) / 2;
	char *raw = fw_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1 || v == 0) {
			free(raw);
			return NULL;
		}
		raw[i] = (char)v;
	}
	raw[n] = '\0';
	return raw;
}

static char *source_path(const struct capture *c, const char *rel)
{
	const char *root = c->o->root ? c->o->root : "/";
	size_t n = strlen(root);
	return fw_xasprintf("%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel);
}

static void note_unreadable(struct capture *c, const char *rel, const char *why)
{
	json_t *e = json_object();
	set_path(e, "path", rel);
	json_object_set_new(e, "reason", json_string(why));
	json_array_append_new(c->unreadable, e);
	c->stats->unreadable++;
}

/* Whether a member of len bytes still fits the loader's budgets, less the manifest (a member,
 * and the room of one member's bytes); a file that does not is noted. */
static bool within_budget(struct capture *c, const char *rel, size_t len)
{
	const struct budget *b = &c->budget;
	uint64_t max_members = b->members - 1, max_bytes = b->bytes > b->member ? b->bytes - b->member : 0;
	if (len > b->member) {
		char why[128];
		snprintf(why, sizeof(why), "not captured: %zu bytes, more than a snapshot member may hold (%llu)", len,
			 (unsigned long long)b->member);
		note_unreadable(c, rel, why);
		return false;
	}
	if (c->stats->members + 1 <= max_members && c->stats->bytes + len <= max_bytes)
		return true;
	if (c->over_budget++ < CAPTURE_BUDGET_NOTES) {
		char why[160];
		snprintf(why, sizeof(why), "not captured: the snapshot's budget (%llu members, %llu bytes) is reached",
			 (unsigned long long)max_members, (unsigned long long)max_bytes);
		note_unreadable(c, rel, why);
	}
	return false;
}

/* The first path a file or folder was taken under, or NULL (and rel is remembered) when it is new. */
static const char *seen_before(struct capture *c, const char *rel)
{
	uint64_t dev, ino;
	if (!fw_machine_identity(c->m, rel, &dev, &ino))
		return NULL;
	char key[48];
	snprintf(key, sizeof(key), "%llx:%llx", (unsigned long long)dev, (unsigned long long)ino);
	const char *first = fw_strmap_get(&c->seen, key);
	if (!first)
		fw_strmap_put(&c->seen, key, fw_xstrdup(rel));
	return first;
}

/* rel stands for what was taken under `first`: recorded as a link, so loading reads the same bytes. */
static void take_alias(struct capture *c, const char *rel, const char *first, const char *kind)
{
	struct member *m = add_member(c);
	m->path = fw_xstrdup(rel);
	m->from = source_path(c, rel);
	m->kind = kind;
	m->is_link = true;
	m->target = fw_xstrdup(first);
	c->stats->links++;
}

static void take_file(struct capture *c, const char *rel, const char *kind, bool quiet_if_missing)
{
	struct fw_blob b;
	struct fw_error err;
	fw_error_clear(&err);
	const char *first = seen_before(c, rel);
	if (first) {
		take_alias(c, rel, first, kind);
		return;
	}
	if (!fw_machine_read(c->m, rel, &b, &err)) {
		if (!(quiet_if_missing && (err.code == FW_E_NOT_FOUND || strstr(err.msg, "No such file"))))
			note_unreadable(c, rel, strchr(err.msg, ':') ? strrchr(err.msg, ':') + 2 : err.msg);
		return;
	}
	if (!within_budget(c, rel, b.len))
		return;
	struct member *m = add_member(c);
	m->path = fw_xstrdup(rel);
	m->from = source_path(c, rel);
	m->kind = kind;
	m->data = fw_xmalloc(b.len ? b.len : 1);
	memcpy(m->data, b.data, b.len);
	m->len = b.len;
	c->stats->members++;
	c->stats->bytes += b.len;
	if (c->o->progress)
		c->o->progress(c->o->progress_ctx, c->stats->members);
}

static void take_link(struct capture *c, const char *rel, const char *kind)
{
	const char *target = fw_machine_link(c->m, rel);
	if (!target)
		return;
	struct member *m = add_member(c);
	m->path = fw_xstrdup(rel);
	m->from = source_path(c, rel);
	m->kind = kind;
	m->is_link = true;
	m->target = fw_xstrdup(target);
	c->stats->links++;
}

/* The SEV platform probes: run on the live machine (as root they read the PSP status and the
 * MSRs; otherwise each records why not); a folder or sample root may carry the results already. */
static void take_sev_probe(struct capture *c, const char *root)
{
	char real[4096];
	if (!realpath(root, real) || strcmp(real, "/") != 0) {
		take_file(c, FW_SEV_PROBE_PATH, "probe", true);
		return;
	}
	json_t *probe = fw_sev_probe_live();
	char *text = fw_json_dumps(probe, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(probe);
	if (!within_budget(c, FW_SEV_PROBE_PATH, strlen(text))) {
		free(text);
		return;
	}
	struct member *m = add_member(c);
	m->path = fw_xstrdup(FW_SEV_PROBE_PATH);
	m->from = fw_xstrdup("/dev/sev, /dev/cpu/0/msr");
	m->kind = "probe";
	m->len = strlen(text);
	m->data = (uint8_t *)text;
	c->stats->members++;
	c->stats->bytes += m->len;
}

/* A folder tree, each folder once whatever links lead to it (a folder of links to itself is
 * read once, its links recorded as links), at most CAPTURE_MAX_DEPTH folders deep. */
#define CAPTURE_MAX_DEPTH 4
static void take_tree(struct capture *c, const char *dir, const char *kind, unsigned depth)
{
	struct fw_strlist names;
	if (depth == 0 && seen_before(c, dir))
		return;
	if (!fw_machine_list(c->m, dir, &names))
		return;
	for (size_t i = 0; i < names.count; i++) {
		char *rel = fw_xasprintf("%s/%s", dir, names.items[i]);
		struct fw_strlist sub;
		if (fw_machine_list(c->m, rel, &sub)) {
			fw_strlist_free(&sub);
			const char *first = seen_before(c, rel);
			if (first) {
				const char *target = fw_machine_link(c->m, rel);
				take_alias(c, rel, target ? target : first, kind);
			} else if (depth + 1 > CAPTURE_MAX_DEPTH) {
				note_unreadable(c, rel, "not captured: a folder deeper than 4 levels");
			} else {
				take_tree(c, rel, kind, depth + 1);
			}
		} else {
			take_file(c, rel, kind, false);
		}
		free(rel);
	}
	fw_strlist_free(&names);
}

/* nvidia-smi's P2P view, run read-only on the live machine when it is installed (topology,
 * P2P read status, index to PCI address); a folder or sample root may carry the outputs already
 * under FW_P2P_CAPTURE_DIR. */
static void take_nvidia_smi(struct capture *c, const char *root)
{
	static const struct {
		const char *file;
		char *argv[6];
	} runs[] = {
		{"nvidia-smi-topo-m.txt", {"nvidia-smi", "topo", "-m", NULL}},
		{"nvidia-smi-topo-p2p-r.txt", {"nvidia-smi", "topo", "-p2p", "r", NULL}},
		{"nvidia-smi-gpus.csv", {"nvidia-smi", "--query-gpu=index,pci.bus_id", "--format=csv", NULL}},
	};
	char real[4096];
	if (!realpath(root, real) || strcmp(real, "/") != 0) {
		take_tree(c, FW_P2P_CAPTURE_DIR, "p2p", 0);
		return;
	}
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char rel[128], why[256];
		snprintf(rel, sizeof(rel), "%s/%s", FW_P2P_CAPTURE_DIR, runs[i].file);
		uint8_t *data;
		size_t len;
		if (!fw_p2p_run(runs[i].argv, &data, &len, why, sizeof(why))) {
			if (i == 0 && strstr(why, "cannot run"))
				return; /* no nvidia-smi on this machine: nothing to record */
			note_unreadable(c, rel, why);
			continue;
		}
		if (!within_budget(c, rel, len)) {
			free(data);
			continue;
		}
		struct member *m = add_member(c);
		m->path = fw_xstrdup(rel);
		m->from = fw_xasprintf("%s %s%s%s", runs[i].argv[0], runs[i].argv[1], runs[i].argv[2] ? " " : "",
				       runs[i].argv[2] ? runs[i].argv[2] : "");
		m->kind = "p2p";
		m->data = data;
		m->len = len;
		c->stats->members++;
		c->stats->bytes += len;
	}
}

/* BIOS settings a kernel driver exposes (Dell, Lenovo, HP): each driver's attributes folder, not
 * its authentication folder (password state is no setting). */
static void take_firmware_attributes(struct capture *c)
{
	struct fw_strlist drivers;
	if (!fw_machine_list(c->m, FW_FWATTR_CLASS, &drivers))
		return;
	for (size_t i = 0; i < drivers.count; i++) {
		char rel[512];
		snprintf(rel, sizeof(rel), FW_FWATTR_CLASS "/%s/attributes", drivers.items[i]);
		take_tree(c, rel, "firmware-attributes", 1);
	}
	fw_strlist_free(&drivers);
}

static bool name_matches(const char *name, const char *const *patterns)
{
	for (size_t i = 0; patterns[i]; i++)
		if (fnmatch(patterns[i], name, 0) == 0)
			return true;
	return false;
}

static void take_efivars(struct capture *c)
{
	const char *dir = "sys/firmware/efi/efivars";
	struct fw_strlist names;
	if (!fw_machine_list(c->m, dir, &names))
		return;
	for (size_t i = 0; i < names.count; i++) {
		const char *n = names.items[i];
		size_t len = strlen(n);
		if (len < 38 || n[len - 37] != '-')
			continue;
		char var[1024], guid[40];
		snprintf(var, sizeof(var), "%.*s", (int)(len - 37), n);
		snprintf(guid, sizeof(guid), "%s", n + len - 36);
		for (char *p = guid; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'F' ? *p + 32 : *p);
		bool keep = c->o->all_vars || name_matches(var, wanted_var_names);
		for (size_t v = 0; !keep && v < c->varstores.count; v++)
			keep = strcmp(var, c->varstores.items[v]) == 0;
		for (size_t g = 0; !keep && wanted_var_guids[g]; g++)
			keep = strcmp(guid, wanted_var_guids[g]) == 0;
		if (!keep)
			continue;
		char rel[4096];
		snprintf(rel, sizeof(rel), "%s/%s", dir, n);
		take_file(c, rel, "efivar", false);
	}
	fw_strlist_free(&names);
}

static void take_pci(struct capture *c)
{
	const char *dir = "sys/bus/pci/devices";
	struct fw_strlist names;
	if (!fw_machine_list(c->m, dir, &names))
		return;
	for (size_t i = 0; i < names.count; i++) {
		char base[1024], rel[2048];
		snprintf(base, sizeof(base), "%s/%s", dir, names.items[i]);
		take_link(c, base, "pci");
		for (size_t f = 0; pci_files[f]; f++) {
			snprintf(rel, sizeof(rel), "%s/%s", base, pci_files[f]);
			take_file(c, rel, "pci", true);
		}
		for (size_t l = 0; pci_links[l]; l++) {
			snprintf(rel, sizeof(rel), "%s/%s", base, pci_links[l]);
			take_link(c, rel, "pci");
		}
	}
	fw_strlist_free(&names);
}

/* Which package each CPU is on and which CPUs each NUMA node holds: the topology puts each node
 * under its socket from these. */
static void take_cpu_nodes(struct capture *c)
{
	static const struct {
		const char *dir, *prefix, *file;
	} wanted[] = {
		{"sys/devices/system/cpu", "cpu", "topology/physical_package_id"},
		{"sys/devices/system/node", "node", "cpulist"},
	};
	for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++) {
		struct fw_strlist names;
		if (!fw_machine_list(c->m, wanted[w].dir, &names))
			continue;
		size_t plen = strlen(wanted[w].prefix);
		for (size_t i = 0; i < names.count; i++)
			if (strncmp(names.items[i], wanted[w].prefix, plen) == 0 && isdigit((unsigned char)names.items[i][plen])) {
				char rel[1024];
				snprintf(rel, sizeof(rel), "%s/%s/%s", wanted[w].dir, names.items[i], wanted[w].file);
				take_file(c, rel, "cpu-topology", true);
			}
		fw_strlist_free(&names);
	}
}

static void take_iommu_groups(struct capture *c)
{
	const char *dir = "sys/kernel/iommu_groups";
	struct fw_strlist groups;
	if (!fw_machine_list(c->m, dir, &groups))
		return;
	for (size_t i = 0; i < groups.count; i++) {
		char rel[2048], devdir[2048];
		snprintf(rel, sizeof(rel), "%s/%s/type", dir, groups.items[i]);
		take_file(c, rel, "iommu-group", true);
		snprintf(devdir, sizeof(devdir), "%s/%s/devices", dir, groups.items[i]);
		struct fw_strlist devs;
		if (fw_machine_list(c->m, devdir, &devs)) {
			for (size_t d = 0; d < devs.count; d++) {
				snprintf(rel, sizeof(rel), "%s/%s", devdir, devs.items[d]);
				take_link(c, rel, "iommu-group");
			}
			fw_strlist_free(&devs);
		}
	}
	fw_strlist_free(&groups);
}

static void take_iommus(struct capture *c)
{
	const char *dir = "sys/class/iommu";
	struct fw_strlist names;
	if (!fw_machine_list(c->m, dir, &names))
		return;
	for (size_t i = 0; i < names.count; i++) {
		char rel[2048];
		snprintf(rel, sizeof(rel), "%s/%s", dir, names.items[i]);
		take_link(c, rel, "iommu");
		snprintf(rel, sizeof(rel), "%s/%s/amd-iommu/features", dir, names.items[i]);
		take_file(c, rel, "iommu", true);
		snprintf(rel, sizeof(rel), "%s/%s/amd-iommu/cap", dir, names.items[i]);
		take_file(c, rel, "iommu", true);
	}
	fw_strlist_free(&names);
}

static void add_external(struct capture *c, const char *file, const char *rel, const char *kind, const struct fw_file *f)
{
	if (!within_budget(c, rel, f->len))
		return;
	struct member *m = add_member(c);
	m->path = fw_xstrdup(rel);
	m->from = fw_xstrdup(file);
	m->kind = kind;
	m->data = fw_xmalloc(f->len ? f->len : 1);
	memcpy(m->data, f->data, f->len);
	m->len = f->len;
	c->stats->members++;
	c->stats->bytes += f->len;
}

static void take_external(struct capture *c, const char *file, const char *rel, const char *kind)
{
	struct fw_file f;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_file_read(file, FW_MACHINE_FILE_CAP, &f, &err)) {
		note_unreadable(c, rel, err.msg);
		return;
	}
	add_external(c, file, rel, kind, &f);
	fw_file_close(&f);
}

/* --image-ref: the image's SHA-256, size and name instead of its bytes (commands find the bytes
 * in --image-dir or the cache), so a fleet on one BIOS keeps one copy of the image. */
static void take_image_ref(struct capture *c, const char *file)
{
	const char *rel = "fwlens/image-ref.json";
	struct fw_file f;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_file_open(file, &f, &err)) {
		note_unreadable(c, rel, err.msg);
		return;
	}
	char sha[FW_SHA256_HEX_LEN];
	fw_sha256_hex(f.data, f.len, sha);
	const char *slash = strrchr(file, '/');
	json_t *ref = json_object();
	json_object_set_new(ref, "sha256", json_string(sha));
	json_object_set_new(ref, "size", json_integer((json_int_t)f.len));
	json_object_set_new(ref, "name", json_string(slash ? slash + 1 : file));
	fw_file_close(&f);
	char *text = fw_json_dumps(ref, JSON_COMPACT);
	json_decref(ref);
	if (!within_budget(c, rel, strlen(text))) {
		free(text);
		return;
	}
	struct member *m = add_member(c);
	m->path = fw_xstrdup(rel);
	m->from = fw_xstrdup(file);
	m->kind = "bios-image-ref";
	m->len = strlen(text);
	m->data = (uint8_t *)fw_xstrdup(text);
	free(text);
	c->stats->members++;
	c->stats->bytes += m->len;
}

/* --image, --image-ref and --dmesg name files the user gave: one that is missing or unreadable ends the capture
 * (exit 4, naming it) before any work, instead of becoming a note in the manifest. The kernel log
 * may be a FIFO or a pipe (--dmesg <(dmesg)): it is read with a time limit, never waited on forever. */
static bool read_given_files(struct capture *c, struct fw_error *err)
{
	if (c->o->dmesg && !fw_file_read_within(c->o->dmesg, FW_MACHINE_FILE_CAP, FW_SNAPSHOT_DMESG_SECONDS, &c->dmesg, err)) {
		fw_error_prefix(err, "--dmesg ");
		return false;
	}
	const char *given[][2] = {{"--image", c->o->image}, {"--image-ref", c->o->image_ref}};
	for (size_t i = 0; i < sizeof(given) / sizeof(given[0]); i++) {
		if (!given[i][1])
			continue;
		int fd = open(given[i][1], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
		struct stat st;
		bool ok = fd >= 0 && fstat(fd, &st) == 0;
		if (!ok)
			fw_error_errno(err, "%s %s: cannot open", given[i][0], given[i][1]);
		else if (!S_ISREG(st.st_mode))
			ok = fw_error_set(err, FW_E_IO, "%s %s: not a regular file", given[i][0], given[i][1]);
		if (fd >= 0)
			close(fd);
		if (!ok) {
			fw_file_close(&c->dmesg);
			return false;
		}
	}
	return true;
}

static void take_kernel_log(struct capture *c)
{
	if (c->o->dmesg) {
		add_external(c, c->o->dmesg, "var/log/dmesg", "kernel-log", &c->dmesg);
		return;
	}
	struct fw_blob b;
	char why[256];
	if (!fw_machine_kernel_log(c->m, &b, why, sizeof(why))) {
		note_unreadable(c, "var/log/dmesg", why);
		return;
	}
	if (!within_budget(c, "var/log/dmesg", b.len))
		return;
	struct member *m = add_member(c);
	m->path = fw_xstrdup("var/log/dmesg");
	/* on a live root the running kernel's log (/dev/kmsg or dmesg), not the boot-time var/log/dmesg */
	const char *from = fw_machine_kernel_log_from(c->m);
	m->from = strcmp(from, "var/log/dmesg") == 0 ? source_path(c, "var/log/dmesg") : fw_xstrdup(from);
	m->kind = "kernel-log";
	m->data = fw_xmalloc(b.len ? b.len : 1);
	memcpy(m->data, b.data, b.len);
	m->len = b.len;
	c->stats->members++;
	c->stats->bytes += b.len;
}

/* --- writing the archive --------------------------------------------------------------------- */

static bool gzip_buffer(const uint8_t *in, size_t len, uint8_t **out, size_t *outlen)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	fw_zlib_checked_alloc(&z);
	/* windowBits 31 = gzip wrapper; no file name or time in the header, so output is deterministic */
	if (deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return false;
	size_t cap = deflateBound(&z, len) + 64;
	uint8_t *buf = fw_xmalloc(cap);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		return false;
	}
	*out = buf;
	*outlen = cap - z.avail_out;
	return true;
}

static int cmp_member(const void *a, const void *b)
{
	return strcmp(((const struct member *)a)->path, ((const struct member *)b)->path);
}

static uint64_t capture_time(const struct fw_capture_options *o)
{
	const char *sde = fw_env()->source_date_epoch;
	if (sde)
		return strtoull(sde, NULL, 10);
	return o->created ? o->created : (uint64_t)time(NULL);
}

bool fw_snapshot_capture(const struct fw_capture_options *o, FILE *out, struct fw_capture_stats *stats,
			 struct fw_error *err)
{
	struct capture c;
	memset(&c, 0, sizeof(c));
	memset(stats, 0, sizeof(*stats));
	c.o = o;
	c.stats = stats;
	c.budget = snapshot_budget();
	const char *root = o->root ? o->root : "/";
	struct stat st;
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
		return fw_error_set(err, FW_E_IO, "%s: not a folder", root);
	if (!read_given_files(&c, err))
		return false;
	if (!fw_machine_open(root, &c.m, err)) {
		fw_file_close(&c.dmesg);
		return false;
	}
	c.unreadable = json_array();
	c.nodes = json_array();
	fw_strmap_init(&c.seen);
	for (size_t i = 0; o->image_varstores && i < o->image_varstores->count; i++)
		fw_strlist_push(&c.varstores, o->image_varstores->items[i]);

	take_tree(&c, "sys/firmware/acpi/tables", "acpi-table", 0);
	take_efivars(&c);
	for (size_t i = 0; dmi_names[i]; i++) {
		char rel[256];
		snprintf(rel, sizeof(rel), "sys/class/dmi/id/%s", dmi_names[i]);
		take_file(&c, rel, "dmi", true);
	}
	for (size_t i = 0; proc_files[i]; i++)
		take_file(&c, proc_files[i], "proc", true);
	take_iommu_groups(&c);
	take_pci(&c);
	take_cpu_nodes(&c);
	take_iommus(&c);
	take_firmware_attributes(&c);
	take_tree(&c, "sys/module/kvm_amd/parameters", "module-param", 0);
	take_tree(&c, "sys/module/kvm/parameters", "module-param", 0);
	take_tree(&c, "sys/module/ccp/parameters", "module-param", 0);
	/* the GPU driver (version, per-GPU model and VBIOS), boot configuration, Proxmox VM and
	 * container configurations (which GPU belongs to which guest) */
	take_tree(&c, "proc/driver/nvidia", "gpu-driver", 0);
	struct fw_strlist modules;
	if (fw_machine_list(c.m, "sys/module", &modules)) {
		for (size_t i = 0; i < modules.count; i++)
			if (strncmp(modules.items[i], "nvidia", 6) == 0) {
				char rel[512];
				snprintf(rel, sizeof(rel), "sys/module/%s/version", modules.items[i]);
				take_file(&c, rel, "gpu-driver", true);
			}
		fw_strlist_free(&modules);
	}
	for (size_t i = 0; boot_files[i]; i++)
		take_file(&c, boot_files[i], "boot-config", true);
	for (size_t i = 0; boot_dirs[i]; i++)
		take_tree(&c, boot_dirs[i], "boot-config", 1);
	/* the checks an admin accepted (doctor reads it from the machine) */
	take_file(&c, "etc/fwlens/accept", "fwlens-config", true);
	/* container managers' marks (not proc/1/environ: it may hold secrets) */
	take_file(&c, "run/systemd/container", "container", true);
	take_file(&c, ".dockerenv", "container", true);
	take_file(&c, "run/.containerenv", "container", true);
	take_tree(&c, "etc/pve/qemu-server", "proxmox", 1);
	take_tree(&c, "etc/pve/lxc", "proxmox", 1);
	/* device nodes are recorded by existence; "dev" itself tells that they were looked for */
	if (fw_machine_exists(c.m, "dev"))
		json_array_append_new(c.nodes, json_string("dev"));
	if (fw_machine_exists(c.m, "dev/sev"))
		json_array_append_new(c.nodes, json_string("dev/sev"));
	if (fw_machine_exists(c.m, "dev/sev-guest"))
		json_array_append_new(c.nodes, json_string("dev/sev-guest"));
	take_kernel_log(&c);
	take_sev_probe(&c, root);
	take_nvidia_smi(&c, root);
	fw_file_close(&c.dmesg);
	if (o->image) {
		const char *slash = strrchr(o->image, '/');
		char rel[1024];
		snprintf(rel, sizeof(rel), "fwlens/image/%s", slash ? slash + 1 : o->image);
		take_external(&c, o->image, rel, "bios-image");
	}
	if (o->image_ref)
		take_image_ref(&c, o->image_ref);

	if (c.over_budget > CAPTURE_BUDGET_NOTES) {
		char why[96];
		snprintf(why, sizeof(why), "not captured: %lu more files past the snapshot's budget",
			 c.over_budget - CAPTURE_BUDGET_NOTES);
		note_unreadable(&c, "*", why);
	}
	const char *key;
	void *first;
	for (size_t it = 0; fw_strmap_next(&c.seen, &it, &key, &first);)
		free(first);
	fw_strmap_free(&c.seen);
	qsort(c.members, c.count, sizeof(*c.members), cmp_member);
	uint64_t created = capture_time(o);
	json_t *manifest = json_object();
	json_object_set_new(manifest, "format", json_string(FW_SNAPSHOT_FORMAT));
	json_object_set_new(manifest, "version", json_integer(FW_SNAPSHOT_VERSION));
	json_object_set_new(manifest, "tool", json_string("fwlens " FWLENS_VERSION));
	char when[32];
	time_t t = (time_t)created;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_set_new(manifest, "created", json_string(when));
	json_t *src = json_object();
	set_path(src, "root", root);
	json_object_set_new(src, "all_vars", json_boolean(o->all_vars));
	if (o->image)
		set_path(src, "image", o->image);
	if (o->image_ref)
		json_object_set_new(src, "image_ref", json_string(o->image_ref));
	json_object_set_new(manifest, "source", src);

	/* Compress large members first so the manifest can name what is stored. */
	json_t *members = json_array(), *links = json_array();
	uint64_t inflated = 0; /* bytes the compressed members inflate to */
	uint8_t **stored = fw_xcalloc(c.count ? c.count : 1, sizeof(uint8_t *));
	size_t *stored_len = fw_xcalloc(c.count ? c.count : 1, sizeof(size_t));
	for (size_t i = 0; i < c.count; i++) {
		struct member *m = &c.members[i];
		if (m->is_link) {
			json_t *l = json_object();
			set_path(l, "path", m->path);
			set_path(l, "target", m->target);
			json_array_append_new(links, l);
			continue;
		}
		json_t *e = json_object();
		char sha[FW_SHA256_HEX_LEN];
		set_path(e, "path", m->path);
		json_object_set_new(e, "kind", json_string(m->kind));
		set_path(e, "from", m->from);
		json_object_set_new(e, "size", json_integer((json_int_t)m->len));
		json_object_set_new(e, "sha256", json_string(fw_sha256_hex(m->data, m->len, sha)));
		bool gz = m->len > FW_SNAPSHOT_GZIP_THRESHOLD && gzip_buffer(m->data, m->len, &stored[i], &stored_len[i]);
		if (gz && (m->len > FW_SNAPSHOT_MAX_INFLATED - inflated || stored_len[i] >= m->len)) {
			/* the loader refuses compressed members past their budget, and data that does not
			 * compress could grow past a member's limit: stored plain instead */
			free(stored[i]);
			stored[i] = NULL;
			gz = false;
		}
		if (gz)
			inflated += m->len;
		json_object_set_new(e, "compression", gz ? json_string("gzip") : json_null());
		char *name = fw_xasprintf("files/%s%s", m->path, gz ? ".gz" : "");
		set_path(e, "stored", name);
		free(name);
		json_array_append_new(members, e);
	}
	json_object_set_new(manifest, "members", members);
	json_object_set_new(manifest, "links", links);
	json_object_set_new(manifest, "nodes", c.nodes);
	json_object_set_new(manifest, "unreadable", c.unreadable);

	char *text = fw_json_dumps(manifest, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(manifest);
	/* the loader reads no member larger than a machine file: a manifest past it (hundreds of
	 * thousands of unreadable files) would make a snapshot it refuses */
	size_t manifest_len = strlen(text);
	bool manifest_fits = manifest_len <= c.budget.member;
	struct fw_tar_writer w;
	fw_tar_writer_init(&w, out, created);
	bool ok = manifest_fits && fw_tar_write_file(&w, "manifest.json", (const uint8_t *)text, manifest_len);
	free(text);
	for (size_t i = 0; ok && i < c.count; i++) {
		struct member *m = &c.members[i];
		char *name = fw_xasprintf("files/%s%s", m->path, stored[i] ? ".gz" : "");
		if (m->is_link) {
			/* links live in the manifest only, so `tar x` of a snapshot gives a plain tree */
		} else if (stored[i]) {
			ok = fw_tar_write_file(&w, name, stored[i], stored_len[i]);
			stats->stored_bytes += stored_len[i];
		} else {
			ok = fw_tar_write_file(&w, name, m->data, m->len);
			stats->stored_bytes += m->len;
		}
		free(name);
	}
	bool finished = fw_tar_finish(&w); /* also frees the writer after a failure */
	ok = ok && finished;
	for (size_t i = 0; i < c.count; i++) {
		free(c.members[i].path);
		free(c.members[i].from);
		free(c.members[i].data);
		free(c.members[i].target);
		free(stored[i]);
	}
	free(stored);
	free(stored_len);
	free(c.members);
	fw_strlist_free(&c.varstores);
	fw_machine_close(c.m);
	if (!manifest_fits)
		return fw_error_set(err, FW_E_LIMIT, "the manifest would take %zu bytes, more than a snapshot member may hold (%llu)",
				    manifest_len, (unsigned long long)c.budget.member);
	if (!ok)
		return fw_error_errno(err, "writing the snapshot failed");
	return true;
}

/* --- loading --------------------------------------------------------------------------------- */

/* A gzip member's size as its trailer states it (ISIZE, the size modulo 2^32: members are
 * below 4 GiB), so the budget is checked before anything is allocated; inflating must then give
 * exactly that many bytes. */
static bool gunzip_member(const uint8_t *in, size_t len, uint64_t member_cap, uint64_t budget, uint8_t **out,
			  size_t *outlen, char *why, size_t whylen)
{
	if (len < 18 || in[0] != 0x1F || in[1] != 0x8B) {
		snprintf(why, whylen, "not gzip data");
		return false;
	}
	uint64_t want = fw_le32(in + len - 4);
	/* deflate cannot do better than 1032:1: a larger stated size is a lie */
	uint64_t ratio_cap = (uint64_t)len * 1032;
	if (want > member_cap || want > ratio_cap || want > budget) {
		snprintf(why, whylen, "inflates to %llu bytes, more than %s (%llu)", (unsigned long long)want,
			 want > member_cap ? "one member may hold"
			 : want > ratio_cap ? "deflate can give from its size"
					    : "is left of the budget for compressed members",
			 (unsigned long long)(want > member_cap ? member_cap : want > ratio_cap ? ratio_cap : budget));
		return false;
	}
	z_stream z;
	memset(&z, 0, sizeof(z));
	fw_zlib_checked_alloc(&z); /* out of memory inside zlib is exit 4 naming the member, as here */
	if (inflateInit2(&z, 31) != Z_OK) {
		snprintf(why, whylen, "corrupt gzip data (no zlib stream can be set up)");
		return false;
	}
	/* one byte more than stated, so a trailer that lies about the size is caught */
	uint8_t *buf = fw_xmalloc((size_t)want + 1);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)want + 1;
	int rc = inflate(&z, Z_FINISH);
	size_t got = (size_t)want + 1 - z.avail_out;
	inflateEnd(&z);
	if (rc != Z_STREAM_END || got != want) {
		free(buf);
		snprintf(why, whylen, rc == Z_STREAM_END ? "gives another size than its trailer states" : "corrupt gzip data");
		return false;
	}
	*out = buf;
	*outlen = got;
	return true;
}

static bool load_buffer(const uint8_t *bytes, size_t n, const char *path, uint64_t max_total,
			bool in_place, struct fw_machine **out, struct fw_error *err_out);

bool fw_snapshot_load(const char *path, struct fw_machine **out, struct fw_error *err)
{
	struct fw_file f;
	if (!fw_file_open(path, &f, err))
		return false;
	/* the members are read in place: the machine keeps the file */
	bool ok = load_buffer(f.data, f.len, path, FW_SNAPSHOT_MAX_TOTAL, true, out, err);
	if (ok)
		fw_machine_keep_archive(*out, &f);
	fw_file_close(&f);
	return ok;
}

bool fw_snapshot_load_buffer(const uint8_t *bytes, size_t n, const char *path, struct fw_machine **out,
			     struct fw_error *err_out)
{
	return load_buffer(bytes, n, path, FW_SNAPSHOT_MAX_TOTAL, false, out, err_out);
}

bool fw_snapshot_load_buffer_capped(const uint8_t *bytes, size_t n, const char *path, uint64_t max_total,
				    struct fw_machine **out, struct fw_error *err_out)
{
	return load_buffer(bytes, n, path, max_total, false, out, err_out);
}

/* in_place: the members are left in `bytes`, which the caller hands to the machine when it is made */
static bool load_buffer(const uint8_t *bytes, size_t n, const char *path, uint64_t max_total,
			bool in_place, struct fw_machine **out, struct fw_error *err_out)
{
	const struct budget budget = snapshot_budget();
	if (max_total > budget.bytes)
		max_total = budget.bytes;
	struct fw_error local, *err = err_out ? err_out : &local; /* the tar walk reports through it */
	struct fw_view v = fw_view_make(bytes, n, 0);
	if (!fw_tar_probe(&v))
		return fw_error_set(err, FW_E_INVALID, "%s: not a fwlens snapshot (no tar header at 0x0)", path);
	/* the members' total is checked below, past the manifest (which counts against the reader's) */
	const struct fw_tar_limits lim = {budget.members, budget.member, max_total + budget.member};
	struct fw_tar_reader r;
	fw_tar_reader_init(&r, &v, &lim);
	r.name = path; /* out of memory names the member and the snapshot */
	r.in_place = in_place;
	struct fw_tar_entry e;
	struct fw_machine *m = fw_machine_new_snapshot(path);
	/* the manifest: its links and device nodes now, the whole document when a command asks */
	json_t *manifest = NULL, *links = NULL, *nodes = NULL, *created = NULL;
	const char *manifest_text = NULL; /* in place, or manifest_owned: taken from the reader */
	uint8_t *manifest_owned = NULL;
	size_t manifest_len = 0;
	bool have_manifest = false;
	uint64_t total = 0, inflated = 0;
	bool ok = true;
	fw_error_clear(err);
	while (ok && fw_tar_next(&r, &e, err)) {
		if (strcmp(e.name, "manifest.json") == 0 && e.type == '0') {
			if (have_manifest) { /* one manifest: a second would replace what the first says */
				ok = fw_error_set(err, FW_E_INVALID, "%s: a second manifest.json at 0x%llx", path,
						  (unsigned long long)e.header_offset);
				break;
			}
			have_manifest = true;
			const char *text = (const char *)e.data.p;
			static const char *const keys[] = {"format", "links", "nodes", "created"};
			struct fw_json_span sp[4];
			json_t *format;
			if (fw_json_skim_object(text, e.data.len, keys, 4, sp)) {
				/* a plain document: its few values are parsed, the rest kept as text */
				json_t **vals[4] = {&format, &links, &nodes, &created};
				for (int k = 0; k < 4; k++)
					*vals[k] = sp[k].value_len ? json_loadb(text + sp[k].value, sp[k].value_len, JSON_DECODE_ANY, NULL)
								   : NULL;
				manifest_owned = fw_tar_take_data(&r);
				manifest_text = text;
				manifest_len = e.data.len;
			} else {
				json_error_t je;
				manifest = json_loadb(text, e.data.len, 0, &je);
				format = json_incref(json_object_get(manifest, "format"));
				links = json_incref(json_object_get(manifest, "links"));
				nodes = json_incref(json_object_get(manifest, "nodes"));
				if (!manifest || !json_is_object(manifest)) {
					json_decref(format);
					format = NULL;
				}
			}
			bool ours = format && strcmp(json_string_value(format) ?: "", FW_SNAPSHOT_FORMAT) == 0;
			json_decref(format);
			if (!ours) {
				ok = fw_error_set(err, FW_E_INVALID, "%s: manifest.json at 0x%llx is not a fwlens snapshot manifest",
						  path, (unsigned long long)e.header_offset);
				break;
			}
			continue;
		}
		if (strncmp(e.name, "files/", 6) != 0 || e.type != '0' || !e.name[6])
			continue; /* the reader refused absolute names and ".." already */
		const char *rel = e.name + 6;
		size_t rlen = strlen(rel);
		if (rlen > 3 && strcmp(rel + rlen - 3, ".gz") == 0) {
			uint8_t *data;
			size_t len;
			char why[160];
			char reading[512];
			snprintf(reading, sizeof(reading), "%s in %s", e.name, path);
			fw_file_note_reading(reading);
			bool inflated_ok = gunzip_member(e.data.p, e.data.len, budget.member, FW_SNAPSHOT_MAX_INFLATED - inflated,
							 &data, &len, why, sizeof(why));
			fw_file_note_reading(path);
			if (!inflated_ok) {
				ok = fw_error_set(err, FW_E_LIMIT, "%s: member %s at 0x%llx: %s", path, e.name,
						  (unsigned long long)e.header_offset, why);
				if (strstr(why, "gzip") || strstr(why, "trailer"))
					err->code = FW_E_INVALID;
				break;
			}
			char *plain = fw_xstrndup(rel, rlen - 3);
			total += len;
			inflated += len;
			fw_machine_add_file(m, plain, data, len);
			free(plain);
		} else {
			total += e.data.len;
			uint8_t *data = fw_tar_take_data(&r);
			if (data)
				fw_machine_add_file(m, rel, data, e.data.len);
			else
				fw_machine_add_file_in_place(m, rel, e.data.p, e.data.len);
		}
		if (total > max_total) {
			ok = fw_error_set(err, FW_E_LIMIT, "%s: member %s at 0x%llx: members add up to more than %llu bytes",
					  path, e.name, (unsigned long long)e.header_offset, (unsigned long long)max_total);
			break;
		}
	}
	fw_tar_reader_free(&r);
	if (ok && err->code != FW_OK) {
		fw_error_prefix(err, "%s: ", path);
		ok = false;
	}
	if (ok && !have_manifest)
		ok = fw_error_set(err, FW_E_INVALID, "%s: no manifest.json: not a fwlens snapshot", path);
	if (ok) {
		/* symbolic links and device nodes come from the manifest */
		json_t *l;
		size_t i;
		json_array_foreach(links, i, l)
		{
			char *p = fw_snapshot_json_path(l, "path"), *t = fw_snapshot_json_path(l, "target");
			if (p && t && !strstr(p, "..") && !strstr(t, ".."))
				fw_machine_add_link(m, p, t);
			free(p);
			free(t);
		}
		json_array_foreach(nodes, i, l)
		{
			const char *p = json_string_value(l);
			if (p && !strstr(p, ".."))
				fw_machine_add_node(m, p);
		}
		if (manifest)
			fw_machine_set_manifest(m, json_incref(manifest));
		else
			fw_machine_set_manifest_text(m, manifest_text, manifest_len, !manifest_owned, json_string_value(created));
		manifest_owned = NULL;
	}
	free(manifest_owned);
	json_decref(manifest);
	json_decref(links);
	json_decref(nodes);
	json_decref(created);
	if (!ok) {
		fw_machine_close(m);
		return false;
	}
	*out = m;
	return true;
}
