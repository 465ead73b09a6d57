/* SRC: whatever the user points a command at, opened once and turned into the models the query
 * layer joins.
 *
 *   a machine    (a snapshot file, a folder laid out like a Linux root, "/"): host facts, its EFI
 *                variables, its ACPI tables; with --image, or an image stored in the snapshot,
 *                also the BIOS forms that decode its variables into settings;
 *   firmware     (a capsule, a flash image, a volume, a module, a section): the node tree, its
 *                forms, and the variables of its NVRAM stores;
 *   a list       ("-" for standard input, or a .json/.jsonl file): settings saved earlier with
 *                `fwlens settings --format json|jsonl`, with their current values if they had any.
 *
 * Every model is built on first use and kept: a command asks for what it needs. */
#ifndef FW_SOURCE_H
#define FW_SOURCE_H

#include "parsers/json-text.h"
#include <stdbool.h>

#include "acpi/set.h"
#include "cache.h"
#include "cpu-gen.h"
#include "doctor.h"
#include "tools/host/host.h"
#include "ifr/hii.h"
#include "ifr/settings.h"
#include "inventory.h"
#include "tools/host/machine.h"
#include "parsers/nvram.h"
#include "amisce.h"
#include "setlist.h"
#include "vars-input.h"

struct fw_source_options {
	const char *image;  /* BIOS image whose forms decode the machine's variables */
	const char *lang;   /* display language of setup strings (default en-US) */
	const char *module; /* restrict settings to a module (name or GUID) */
	/* The cache of decoded firmware (NULL: none): the forms and version facts of an image already
	 * seen are read from it, without the image. For commands that need no more of the image than
	 * that (doctor, query, find, notes, plan). */
	const struct fw_cache *cache;
	const char *image_dir; /* where snapshots captured with --image-ref find their image */
	const char *vars;   /* current values from here instead of the source's own variables: anything
			     * `fwlens nvram` reads (vars-input.h) */
	/* Once the image is parsed and its version strings read, let its mapped bytes leave the
	 * resident set (read again from the page cache where still needed): two 32 MiB images side
	 * by side in one diff need not both stay resident. */
	bool release_input;
	/* saved P2P test outputs given on the command line (doctor, notes --p2p-evidence), for the
	 * p2p-proof check beside what a snapshot holds */
	const char *const *p2p_evidence;
	size_t np2p_evidence;
};

enum fw_source_kind { FW_SOURCE_MACHINE, FW_SOURCE_FIRMWARE, FW_SOURCE_LIST };
const char *fw_source_kind_name(enum fw_source_kind k); /* "machine", "firmware", "settings list" */

struct fw_source {
	enum fw_source_kind kind;
	char *path;
	struct fw_source_options opt;
	/* machine */
	struct fw_machine *machine;
	bool have_host;
	struct fw_host host;
	/* forms: the firmware itself, --image, or the image stored in a snapshot */
	char *image_name;
	const uint8_t *image;   /* the image's bytes (firmware, --image, or stored in the snapshot); NULL when
				   the forms came from the cache */
	size_t image_len;       /* its length, also when the forms came from the cache */
	char image_sha256[FW_SHA256_HEX_LEN]; /* "" until known: the cache key, or hashed on first use */
	bool from_cache;        /* forms and image version facts read from the cache */
	struct fw_cache_entry cached;
	bool have_hii;
	struct fw_hii_input hii;
	/* variables: the machine's efivars, or the firmware's NVRAM stores */
	bool vars_loaded;
	struct fw_tree *vars_tree;
	struct fw_varlist vars;
	bool have_vars_in;
	struct fw_vars_input vars_in;       /* --vars */
	struct fw_current_source current;   /* where current values come from */
	const char *hii_crc;                /* HIICrc32 of an AMISCE export (SRC or --vars), or NULL */
	bool have_amisce;
	struct fw_amisce amisce;            /* an AMISCE export: SRC, or --vars */
	json_t *redfish;                    /* a saved Redfish Bios resource given with --vars */
	char current_text[1200];
	/* settings built from the forms and bound to the variables */
	bool settings_built;
	struct fw_settings settings;
	/* the settings as flat records (from the settings, or read from a list) */
	bool list_built, have_list;
	bool list_from_fwattrs; /* the list is the machine's firmware-attributes class (no forms) */
	char fwattr_drivers[256]; /* their drivers, "dell-wmi-sysman" */
	int fwattr_count;        /* attributes found when looked for; -1: no firmware-attributes class */
	struct fw_setlist list;
	/* ACPI tables of the machine */
	bool acpi_loaded;
	struct fw_acpi_set *acpi;
	struct fw_acpi_files acpi_files; /* the machine as files, for the set and its topology */
	/* modules and versions of the image */
	bool inventory_built;
	struct fw_inventory inventory;
	/* the machine's CPU (proc/cpuinfo), read once: picks among CBS modules made per generation */
	bool cpu_read;
	struct fw_cpu_gen cpu;
	bool cpu_module; /* the forms have a module made for that CPU's generation */
	char **warnings; /* what could not be used, for the command to log */
	size_t nwarnings;
};

bool fw_source_open(const char *path, const struct fw_source_options *o, struct fw_source *src, struct fw_error *err);

/* What `path` is (a file, a folder, "-" for standard input), among the kinds in `accept`
 * (FW_ACCEPT_*, capsule/recognise.h): the one place a path is looked at to decide. */
enum fw_input_kind fw_source_recognise(const char *path, uint64_t accept);
/* The same, keeping the bytes the recogniser read for the reader after it, so a file is opened
 * once: *kept is the open file (its path set; fw_file_close, or hand it on) or, when nothing was
 * read (a folder, a kind its name says, a file that cannot be opened), zeroed. */
enum fw_input_kind fw_source_recognise_keep(const char *path, uint64_t accept, struct fw_file *kept);
/* The firmware tree of a path (capsule/detect.h: fw_firmware_open_file). */
bool fw_source_open_firmware(const char *path, const struct fw_open_options *o, struct fw_firmware *fw,
			     struct fw_error *err);
/* The same over the bytes fw_source_recognise_keep kept (taken; none kept: the path is opened). */
bool fw_source_open_firmware_kept(const char *path, struct fw_file *kept, const struct fw_open_options *o,
				  struct fw_firmware *fw, struct fw_error *err);
/* The ACPI tables of a path (FW_ACCEPT_ACPI: a binary table or several, acpidump text, a folder
 * of tables, a root holding sys/firmware/acpi/tables, a firmware image carrying tables),
 * decoded (source-acpi.c). */
bool fw_source_acpi_open(const char *path, struct fw_acpi_set **out, struct fw_error *err);
/* The same for a path the caller recognised (FW_ACCEPT_ACPI, but for a snapshot), with the
 * bytes fw_source_recognise_keep kept (taken). */
bool fw_source_acpi_open_kind(const char *path, enum fw_input_kind kind, struct fw_file *kept, struct fw_acpi_set **out,
			      struct fw_error *err);
/* The running machine behind a set read from a live root (s->sysroot): its sysfs as the
 * topology's view (acpi/topo.h). *m, to close with fw_machine_close after the topology is
 * built; false (nothing to close) for a set of any other source. */
struct fw_topo_host;
bool fw_source_acpi_topo_host(const struct fw_acpi_set *s, struct fw_machine **m, struct fw_topo_host *out);
/* The HII forms of a path: every module of a firmware image, capsule, volume or FFS file (each
 * compressed section inflated once), or a section file, PE32/TE body or package blob as one blob. */
bool fw_source_open_hii(const char *path, const struct fw_hii_options *o, struct fw_hii_input *in, struct fw_error *err);
/* The varstore names the forms of a BIOS image declare (none when it cannot be read), for
 * snapshot capture (fw_capture_options.image_varstores). */
void fw_source_image_varstores(const char *path, struct fw_strlist *out);
void fw_source_close(struct fw_source *src);
/* Open two sources at once, in two threads, with their settings and inventories built, so a
 * diff parses both images in about the time of one. On failure errs[i] says which side failed
 * (the other side is closed too). */
bool fw_source_open_pair(const char *const paths[2], const struct fw_source_options *const opts[2],
			 struct fw_source srcs[2], struct fw_error errs[2]);
void fw_source_warn(struct fw_source *src, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The SHA-256 of the image the forms came from (the file, --image, stored in the snapshot or named
 * by it), from the cache key or hashed once; NULL when the source has no image. */
const char *fw_source_image_sha256(struct fw_source *src);

/* The variables of the source (possibly empty, never NULL). */
const struct fw_varlist *fw_source_vars(struct fw_source *src);
/* Where the current values of the settings come from (loads the variables); never NULL. */
const struct fw_current_source *fw_source_current(struct fw_source *src);
/* The same as one line of text ("the image's own NVAR store, X.CAP @0x1BE1090"). */
const char *fw_source_current_text(struct fw_source *src);

/* The settings, bound to the source's variables; NULL when the source has no forms (a machine
 * without an image), with a warning saying so. */
struct fw_settings *fw_source_settings(struct fw_source *src);
/* The setting with this prompt (case ignored); among several (one module per CPU family, a
 * prompt in two menus) the first that has a current value wins, else the first. */
const struct fw_setting *fw_source_setting(struct fw_source *src, const char *prompt);

/* The settings as flat records: built from the settings, or the list a list source was read
 * from; NULL with a warning when the source has no forms. */
struct fw_setlist *fw_source_setlist(struct fw_source *src);
/* Modules and versions of the image, and on a machine the versions the machine reports (DMI
 * BIOS version and date, SEV firmware from the kernel log); never NULL. */
struct fw_inventory *fw_source_inventory(struct fw_source *src);

/* The ACPI tables: a machine's (sys/firmware/acpi/tables with dynamic/, read through the machine
 * so a snapshot gives the tables its folder gives), or those a firmware image carries in its
 * sections; decoded; NULL when there are none. */
struct fw_acpi_set *fw_source_acpi(struct fw_source *src);

/* The running machine's root buses and PCI devices for the ACPI topology (acpi/topo.h), read
 * through the machine so a snapshot gives what its folder gives; false when not a machine. */
bool fw_source_topo_host(struct fw_source *src, struct fw_topo_host *out);

/* The decoded facts of one ACPI table of the machine as one line of text ("IVRS: 8 IOMMUs, EFR
 * SNPSup on all"), for topic facts whose pattern looks into a table; NULL when the table is
 * absent or not decoded. */
const char *fw_source_acpi_facts(struct fw_source *src, const char *signature);

/* Wire the sources doctor checks draw on (settings, ACPI) to this source. */
void fw_source_doctor_ctx(struct fw_source *src, unsigned profiles, struct fw_doctor_ctx *ctx);

#endif
