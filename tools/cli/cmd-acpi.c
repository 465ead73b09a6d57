/* fwlens acpi: ACPI tables from a file, a tables folder, a live root or acpidump text, decoded;
 * `fwlens acpi topo` joins them into the PCI root-bridge / NUMA / IOMMU topology. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "acpi-write.h"
#include "cli.h"
#include "emit.h"
#include "acpi/topo.h"
#include "topo-dot.h"
#include "parsers/file.h"
#include "tools/query/source.h"

static const struct fw_option acpi_options[] = {
	{"table", 't', "SIG[,SIG]", "decode only these tables (IVRS,SRAT,...); the others are not listed",
	 "IVRS,SRAT,SLIT,MCFG,DMAR,APIC,FACP,HMAT,CEDT,DSDT,SSDT,XSDT"},
	{"iasl-timeout", 0, "SECONDS", "topo: stop iasl after this long (default 120)", NULL},
	{"no-dsl", 0, NULL, "topo: do not run iasl; root bridges stay unknown", NULL},
	{0},
};

/* "ivrs,SRAT" -> {"IVRS", "SRAT"}; false with a message on a bad signature. */
static bool parse_filter(struct fw_cli *cli, const char *arg, struct fw_acpi_filter *f, char (*buf)[5], size_t cap)
{
	f->sigs = buf;
	f->n = 0;
	const char *p = arg;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (len == 0 || len > 4 || f->n == cap) {
			fw_cli_usage_error(cli, "--table takes 4-character signatures separated by commas, not '%s'", arg);
			return false;
		}
		for (size_t i = 0; i < 4; i++) {
			char c = i < len ? (char)toupper((unsigned char)p[i]) : ' ';
			if (!(isalnum((unsigned char)c) || c == '_' || c == '!' || (c == ' ' && i >= len))) {
				fw_cli_usage_error(cli, "--table: '%.*s' is not a table signature", (int)len, p);
				return false;
			}
			buf[f->n][i] = c;
		}
		buf[f->n][4] = '\0';
		f->n++;
		p += len;
		if (*p == ',')
			p++;
	}
	return f->n > 0 || (fw_cli_usage_error(cli, "--table needs at least one signature"), false);
}

/* The topology, and the machine whose PCI paths the picture draws (NULL: tables only). */
struct shown_topo {
	const struct fw_acpi_topo *topo;
	const struct fw_host *machine;
};

static json_t *topo_document(const void *ctx)
{
	return fw_acpi_json_topo(((const struct shown_topo *)ctx)->topo);
}

static void topo_text(struct fw_cli *cli, const void *ctx)
{
	fw_acpi_text_topo(cli, ((const struct shown_topo *)ctx)->topo);
}

/* a picture, not a document */
static int topo_picture(struct fw_cli *cli, const void *ctx)
{
	const struct shown_topo *s = ctx;
	fw_topo_dot(fw_cli_out(cli), s->topo, s->machine);
	return 0;
}

static const struct fw_emit_writer topo_writers[] = {{"dot", topo_picture}, {NULL, NULL}};

/* The tables shown: the set and the --table filter. */
struct tables {
	const struct fw_acpi_set *set;
	const struct fw_acpi_filter *filter;
};

/* json and xml are written a table at a time: 4,000 tables do not become one document first */
static json_t *tables_head(const void *ctx)
{
	return fw_acpi_json_set_head(((const struct tables *)ctx)->set);
}

static json_t *tables_next(const void *ctx, size_t *pos)
{
	const struct tables *t = ctx;
	return fw_acpi_json_set_next(t->set, t->filter, pos);
}

static const struct fw_emit_stream tables_stream = {.head = tables_head, .list = "tables", .next = tables_next};

/* "tables": each table written while its parts are walked (no json_t per value) */
static bool tables_put(struct fw_json_writer *w, void *ctx, json_t *value, unsigned depth)
{
	(void)value;
	const struct tables *t = ctx;
	struct fw_json_emit e;
	fw_json_emit_init(&e, w, depth);
	fw_json_emit_array(&e);
	for (size_t i = 0; i < t->set->ntables; i++)
		if (fw_acpi_filter_match(t->filter, t->set->tables[i]))
			fw_acpi_emit_table(&e, t->set->tables[i]);
	fw_json_emit_end(&e);
	return !e.failed;
}

/* json: the head's members as the stream writes them, the tables through tables_put; the
 * bytes of the whole document (xml still goes through tables_stream) */
static int tables_json(struct fw_cli *cli, const void *ctx)
{
	FILE *f = fw_cli_out(cli);
	struct fw_json_writer w;
	fw_json_writer_init(&w, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_t *head = tables_head(ctx);
	fw_json_write_object(&w, head, 0, "tables", tables_put, (void *)ctx);
	json_decref(head);
	fw_json_writer_end(&w);
	fputc('\n', f);
	return 0;
}

static const struct fw_emit_writer tables_writers[] = {{"json", tables_json}, {NULL, NULL}};

static void tables_text(struct fw_cli *cli, const void *ctx)
{
	const struct tables *t = ctx;
	fw_acpi_text_set(cli, t->set, t->filter);
}

static int run_topo(struct fw_cli *cli, const struct fw_acpi_set *set, const struct fw_topo_host *host,
		    const struct fw_host *machine)
{
	struct fw_topo_options o = {0};
	o.host = host; /* the running machine's devices and root buses; NULL: the tables alone */
	o.no_dsl = fw_cli_flag(cli, "no-dsl");
	const char *timeout = fw_cli_opt(cli, "iasl-timeout");
	if (timeout) {
		char *end;
		long v = strtol(timeout, &end, 10);
		if (*end || v <= 0 || v > 86400)
			return fw_cli_usage_error(cli, "--iasl-timeout takes a number of seconds (1-86400), not '%s'", timeout);
		o.iasl_timeout = (unsigned)v;
	}
	struct fw_acpi_topo *topo;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_acpi_topo_build(set, &o, &topo, &err))
		return fw_cli_fail(cli, &err);
	struct shown_topo shown = {topo, machine};
	fw_cli_emit(cli, &(struct fw_emit){"acpi-topo", topo_document, topo_text, NULL, NULL, &shown, topo_writers});
	fw_acpi_topo_free(topo);
	return 0;
}

static int run_acpi(struct fw_cli *cli)
{
	bool topo = cli->argc == 2 && strcmp(cli->argv[0], "topo") == 0;
	if (cli->argc == 2 && !topo)
		return fw_cli_usage_error(cli, "unknown subcommand '%s' (did you mean 'topo'?)", cli->argv[0]);
	if (fw_cli_format_is(cli, "dot"))
		topo = true; /* a picture is of the topology: `acpi SRC --format dot` is `acpi topo SRC --format dot` */
	const char *src = cli->argv[cli->argc - 1];
	struct fw_acpi_filter filter = {0};
	char sigs[64][5];
	const char *table_opt = fw_cli_opt(cli, "table");
	if (table_opt && !parse_filter(cli, table_opt, &filter, sigs, 64))
		return FW_EXIT_USAGE;
	struct fw_acpi_set *set;
	struct fw_error err;
	fw_error_clear(&err);
	/* a machine snapshot: its tables as the folder it was captured from gives them */
	struct fw_source machine;
	struct fw_file kept; /* the bytes recognised are the bytes read */
	enum fw_input_kind kind = fw_source_recognise_keep(src, FW_ACCEPT_ACPI, &kept);
	bool snapshot = kind == FW_INPUT_SNAPSHOT;
	if (snapshot) {
		fw_file_close(&kept); /* the snapshot reader loads it */
		if (!fw_source_open(src, NULL, &machine, &err))
			return fw_cli_fail(cli, &err);
		set = fw_source_acpi(&machine);
		for (size_t i = 0; i < machine.nwarnings; i++)
			fw_log_warn(cli, "%s", machine.warnings[i]);
		if (!set) {
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: the snapshot holds no ACPI tables", src);
			fw_source_close(&machine);
			return fw_cli_fail(cli, &err);
		}
	} else if (!fw_source_acpi_open_kind(src, kind, &kept, &set, &err)) {
		return fw_cli_fail(cli, &err);
	}
	int rc = 0;
	if (topo) {
		struct fw_topo_host host;
		/* the picture also shows the PCI path to each GPU: from the snapshot, or the machine folder */
		struct fw_source folder;
		const struct fw_host *pci = snapshot && machine.have_host ? &machine.host : NULL;
		bool have_folder = false;
		if (kind == FW_INPUT_MACHINE_ROOT && fw_cli_format_is(cli, "dot")) {
			struct fw_error ferr;
			have_folder = fw_source_open(src, NULL, &folder, &ferr);
			pci = have_folder && folder.have_host ? &folder.host : NULL;
		}
		/* the running machine, a snapshot or the live root the tables were read from */
		struct fw_machine *root = NULL;
		bool have_host = snapshot ? fw_source_topo_host(&machine, &host) : fw_source_acpi_topo_host(set, &root, &host);
		rc = run_topo(cli, set, have_host ? &host : NULL, pci);
		fw_machine_close(root);
		if (have_folder)
			fw_source_close(&folder);
		goto out;
	}
	if (filter.sigs) {
		bool any = false;
		for (size_t i = 0; i < set->ntables; i++)
			any |= fw_acpi_filter_match(&filter, set->tables[i]);
		if (!any) {
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: no %s table in the input", src, table_opt);
			rc = fw_cli_fail(cli, &err);
			goto out;
		}
	}
	struct tables shown = {set, &filter};
	fw_cli_emit_stream(cli, &(struct fw_emit){"acpi", NULL, tables_text, NULL, NULL, &shown, tables_writers}, &tables_stream);
out:
	if (snapshot)
		fw_source_close(&machine); /* owns the set */
	else
		fw_acpi_set_free(set);
	return rc;
}

FW_COMMAND(acpi,
	.synopsis = "[topo] SRC [--table SIG[,SIG]] [--format text|json|xml|dot]",
	.summary = "Decode ACPI tables (IVRS, SRAT, HMAT, CEDT, PPTT, DMAR, MADT and 23 more) and the PCI root-bridge topology",
	.description =
		"SRC is a binary table, several concatenated tables, acpidump text (any number of tables, with or without "
		"RSDP/XSDT), a folder laid out like /sys/firmware/acpi/tables (dynamic/ included, data/ skipped), or a "
		"live-root folder holding sys/firmware/acpi/tables, or a machine snapshot (fwlens snapshot capture). Every table is listed with its length and checksum "
		"verdict (FACS has no checksum); a bad checksum is reported, never fatal. IVRS is decoded in full with the "
		"facts Linux derives from it: the IVHD type it uses, the devices each IOMMU covers, the IOAPIC/HPET map "
		"checked against the MADT, and the AMD-Vi firmware-bug messages it would print.\n"
		"\n"
		"Tables decoded field by field: RSDP, XSDT, RSDT, FACP (FADT), FACS, APIC (MADT), MCFG, IVRS, DMAR, SRAT, "
		"SLIT, HMAT, CEDT, PPTT, CRAT and CDIT (AMD), MSCT, HPET, SPCR, SPMI, BERT, BGRT, EINJ, ERST, HEST, FPDT, "
		"PCCT, RASF, UEFI and WSMT. Others (DSDT and SSDT are AML: see topo) are listed by name with their length "
		"and checksum.\n"
		"\n"
		"'fwlens acpi topo SRC' disassembles the DSDT and SSDTs with iasl (acpica-tools) and lists the PCI root "
		"bridges with their bus ranges, proximity domains (_PXM, SRAT), the IOMMU covering each, the SRAT Generic "
		"Initiators, and on a live root the PCI devices under each bridge.\n"
		"\n"
		"'fwlens acpi topo SRC --format dot' draws the same as a Graphviz graph: NUMA domains holding their root "
		"bridges, the IOMMUs, and on a machine (folder or snapshot) the path down to every GPU with the ACS "
		"redirect state of each port, the GPU's owner, IOMMU group and type, and the peer pairs of IO_PAGE_FAULTs "
		"('dot -Tsvg' renders it; 'fwlens notes --svg DIR' does both).",
	.formats = "text,json,xml,dot",
	.options = acpi_options,
	.examples = "fwlens acpi /sys/firmware/acpi/tables        # every table of this machine\n"
		    "fwlens acpi acpidump.txt --table IVRS          # the IOMMUs and their devices\n"
		    "fwlens acpi ivrs.dat --format json             # one binary table as JSON\n"
		    "fwlens acpi topo /                             # root bridges, NUMA and IOMMUs of this machine\n"
		    "fwlens acpi topo s1201.fwsnap --format dot > topology.dot   # dot -Tsvg topology.dot > topology.svg",
	.subcommands = "topo",
	.min_args = 1, .max_args = 2, .run = run_acpi, .order = 40);
