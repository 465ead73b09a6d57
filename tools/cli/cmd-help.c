/* fwlens help: usage, per-command help, man pages, shell completion and the command table as
 * JSON, all generated from the command table so they cannot drift apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "emit.h"
#include "output-text.h"
#include "tools/query/topics.h"
#include "parsers/nearest.h"

/* Help text is laid out for an 80-column terminal or pager. */
#define HELP_WIDTH 80

static const struct {
	int code;
	const char *meaning;
} exit_codes[] = {
	{0, "success"},
	{1, "differences found (diff), checks failed (doctor, verify), nothing matched (find, query)"},
	{2, "usage error"},
	{3, "bad input: the data violates its format (the message names the offset and structure)"},
	{4, "I/O error, or a helper program (iasl) missing"},
	{5, "the output format cannot carry a value faithfully: refused, nothing written (an AMISCE script field with a "
	    "line break or control character, two Redfish settings with one attribute name)"},
};
#define EXIT_CODE_COUNT (sizeof(exit_codes) / sizeof(exit_codes[0]))

/* Every environment variable fwlens reads: tools/cli/main.c (handed down through parsers/env.h),
 * the command line's own getenv calls, and PATH for the helper programs it runs.
 * tests/cli/t0000-cli.sh derives the list from the source and fails when one is missing here. */
static const struct {
	const char *name;
	const char *meaning;
} environment[] = {
	{"FWLENS_CACHE_MAX", "the size the firmware cache is kept under, as --cache-max takes it (2G, 800M; default 512M)."},
	{"FWLENS_DOT", "the Graphviz program fwlens notes runs to draw the topology as SVG (default: dot on PATH)."},
	{"FWLENS_IASL", "the iasl program that disassembles DSDT and SSDT tables (default: iasl on PATH)."},
	{"FWLENS_LIMITS", "NAME=N[K|M|G],... lowers, never raises, a size limit: inflate-total (what the compressed "
			  "sections of one input inflate to), snapshot-members, snapshot-bytes, snapshot-member; "
			  "a malformed value is a usage error."},
	{"FWLENS_PCI_IDS", "the PCI ID database device names are taken from (default: libpci's, /usr/share/misc/pci.ids); "
			   "an empty file gives ids only."},
	{"FWLENS_PROGRESS_DELAY", "seconds of work before a progress line appears on a terminal (default 1)."},
	{"FWLENS_RULES", "a topic rules file to use instead of the built-in rules (fwlens query, notes, doctor)."},
	{"FWLENS_THREADS", "how many threads decompress a firmware image's sections (default: the number of CPUs, at most 8)."},
	{"HOME", "the firmware cache is ~/.cache/fwlens when XDG_CACHE_HOME is unset."},
	{"NO_COLOR", "when set and not empty, no colour (unless --color always)."},
	{"PATH", "where the helper programs are found: iasl, dot and dmesg (the kernel log of a live capture)."},
	{"SOURCE_DATE_EPOCH", "the capture time, in seconds since 1970, that snapshot capture records instead of the "
			      "current time, for reproducible snapshots."},
	{"TERM", "when dumb, no colour (unless --color always)."},
	{"TMPDIR", "where iasl's private working folder is made (default /tmp)."},
	{"XDG_CACHE_HOME", "the firmware cache is $XDG_CACHE_HOME/fwlens (an absolute path; --cache-dir overrides it)."},
};
#define ENVIRONMENT_COUNT (sizeof(environment) / sizeof(environment[0]))

/* The choices of an option's argument as a malloc'd comma-separated list, or NULL: its listed
 * values, the topic names of the rules for "@topics", or the command's --format values. */
static char *option_values(const struct fw_option *o, const struct fw_command *cmd)
{
	if (strcmp(o->name, "format") == 0 && cmd && cmd->formats)
		return fw_xstrdup(cmd->formats);
	if (!o->values)
		return NULL;
	if (strcmp(o->values, "@topics") != 0)
		return fw_xstrdup(o->values);
	struct fw_topics t;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_topics_load(NULL, &t, &err))
		return NULL;
	size_t len = 1;
	for (size_t i = 0; i < t.count; i++)
		len += strlen(t.topics[i].name) + 1;
	char *out = fw_xcalloc(1, len);
	for (size_t i = 0; i < t.count; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, t.topics[i].name);
	}
	fw_topics_free(&t);
	return out;
}

/* An option whose argument is a comma-separated list ("T[,T]", "SIG[,SIG]"). */
static bool takes_list(const struct fw_option *o)
{
	return o->arg && strchr(o->arg, ',');
}

/* What an option's argument completes to: a file, a folder, its values, or nothing (GUIDs,
 * numbers, names and free text cannot be guessed). */
enum arg_kind { ARG_NONE, ARG_FILE, ARG_DIR, ARG_WORDS };

static enum arg_kind arg_kind(const struct fw_option *o, const struct fw_command *cmd)
{
	if (!o->arg)
		return ARG_NONE;
	if (o->values || (strcmp(o->name, "format") == 0 && cmd && cmd->formats))
		return ARG_WORDS;
	if (strcmp(o->arg, "DIR") == 0)
		return ARG_DIR;
	static const char *const files[] = {"FILE", "FILE.md", "PEM", "OUT", "OLD", "VARS", NULL};
	for (size_t i = 0; files[i]; i++)
		if (strcmp(o->arg, files[i]) == 0)
			return ARG_FILE;
	return ARG_NONE;
}

static void print_option(FILE *f, const struct fw_option *o, const struct fw_command *cmd)
{
	char left[96];
	if (o->short_name)
		snprintf(left, sizeof(left), "  -%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(left, sizeof(left), "      --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	char *text;
	if (strcmp(o->name, "format") == 0 && cmd->formats) {
		/* "text, json, ...": a long list wraps at its commas */
		char list[256];
		size_t k = 0;
		for (const char *c = cmd->formats; *c && k + 3 < sizeof(list); c++) {
			list[k++] = *c;
			if (*c == ',')
				list[k++] = ' ';
		}
		list[k] = '\0';
		text = fw_xasprintf("output format: %s (default %.*s)", list, (int)strcspn(cmd->formats, ","), cmd->formats);
	} else
		text = fw_xstrdup(o->help);
	/* options are a two-column list; a long left column puts the help on the next line */
	const char *pad = "                              ";
	if (strlen(left) + 2 > strlen(pad)) {
		fprintf(f, "%s\n", left);
		fw_text_wrap_hanging(f, text, pad, pad, HELP_WIDTH);
	} else {
		char first[64];
		snprintf(first, sizeof(first), "%-*s", (int)strlen(pad), left);
		fw_text_wrap_hanging(f, text, first, pad, HELP_WIDTH);
	}
	free(text);
}

/* The usage line, wrapped between bracketed groups, never inside one ("[--module NAME]"). */
static void print_synopsis(FILE *f, const struct fw_command *cmd, const char *b, const char *r)
{
	const char *indent = "             ";
	size_t col = fprintf(f, "%susage:%s fwlens %s", b, r, cmd->name) - strlen(b) - strlen(r);
	const char *p = cmd->synopsis;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *e = p;
		int depth = 0;
		while (*e && (depth > 0 || *e != ' ')) {
			depth += (*e == '[' || *e == '(') - (*e == ']' || *e == ')');
			e++;
		}
		size_t n = (size_t)(e - p);
		if (!n)
			break;
		if (col + 1 + n > HELP_WIDTH && col > strlen(indent)) {
			fprintf(f, "\n%s", indent);
			col = strlen(indent);
		} else {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, p);
		col += n;
		p = e;
	}
	fputc('\n', f);
}

void fw_cli_print_command_help(FILE *f, const struct fw_command *cmd, bool color)
{
	const char *b = color ? "\033[1m" : "", *r = color ? "\033[0m" : "";
	print_synopsis(f, cmd, b, r);
	fputc('\n', f);
	fw_text_wrap(f, cmd->summary, "", HELP_WIDTH);
	if (cmd->description) {
		fputc('\n', f);
		fw_text_wrap(f, cmd->description, "", HELP_WIDTH);
	}
	fprintf(f, "\n%soptions:%s\n", b, r);
	for (const struct fw_option *o = cmd->options; o && o->name; o++)
		print_option(f, o, cmd);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++) {
		if (strcmp(o->name, "format") == 0 && !cmd->formats)
			continue;
		print_option(f, o, cmd);
	}
	if (cmd->examples) {
		fprintf(f, "\n%sexamples:%s\n", b, r);
		const char *p = cmd->examples;
		while (*p) {
			const char *eol = strchr(p, '\n');
			size_t len = eol ? (size_t)(eol - p) : strlen(p);
			fprintf(f, "  %.*s\n", (int)len, p);
			p = eol ? eol + 1 : p + len;
		}
	}
}

void fw_cli_print_usage(FILE *f)
{
	fprintf(f, "usage: fwlens <command> [options] <args>\n\n"
		   "fwlens reads firmware images (ASUS/AMI .CAP capsules, flash images, volumes, modules),\n"
		   "their setup forms and NVRAM, ACPI tables and machine snapshots, and answers what matters\n"
		   "for IOMMU, SEV-SNP, ACS and GPU peer-to-peer.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		char first[32];
		snprintf(first, sizeof(first), "  %-11s ", c->name);
		fw_text_wrap_hanging(f, c->summary, first, "              ", HELP_WIDTH);
	}
	fputs("\nevery command takes: -h/--help, -o/--output FILE (atomic), --format FMT, -q/--quiet,\n"
	      "-v/--verbose (-vv: debug), --color auto|always|never (NO_COLOR is honoured)\n\n"
	      "'fwlens help <command>' or 'fwlens <command> --help' shows one command;\n"
	      "'man fwlens-<command>' its manual page.\n\nexit codes:\n",
	      f);
	for (size_t i = 0; i < EXIT_CODE_COUNT; i++) {
		char first[16];
		snprintf(first, sizeof(first), "  %d  ", exit_codes[i].code);
		fw_text_wrap_hanging(f, exit_codes[i].meaning, first, "     ", HELP_WIDTH);
	}
}

/* --- man pages ------------------------------------------------------------------------------- */

static void roff_text(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\')
			fputs("\\e", f);
		else if (c == '-')
			fputs("\\-", f);
		else if ((c == '.' || c == '\'') && (i == 0 || s[i - 1] == '\n'))
			fputs("\\&", f), fputc(c, f);
		else
			fputc(c, f);
	}
}

static void roff_paragraphs(FILE *f, const char *text)
{
	const char *p = text;
	bool in_pre = false;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len == 0) {
			if (in_pre) {
				fputs(".fi\n.RE\n", f);
				in_pre = false;
			}
			fputs(".PP\n", f);
		} else if (p[0] == ' ') {
			if (!in_pre) {
				fputs(".RS 2\n.nf\n", f);
				in_pre = true;
			}
			roff_text(f, p, len);
			fputc('\n', f);
		} else {
			if (in_pre) {
				fputs(".fi\n.RE\n", f);
				in_pre = false;
			}
			roff_text(f, p, len);
			fputc('\n', f);
		}
		p = eol ? eol + 1 : p + len;
	}
	if (in_pre)
		fputs(".fi\n.RE\n", f);
}

static void man_option(FILE *f, const struct fw_option *o, const struct fw_command *cmd)
{
	fputs(".TP\n\\fB", f);
	if (o->short_name)
		fprintf(f, "\\-%c\\fR, \\fB", o->short_name);
	fprintf(f, "\\-\\-");
	roff_text(f, o->name, strlen(o->name));
	fputs("\\fR", f);
	if (o->arg)
		fprintf(f, " \\fI%s\\fR", o->arg);
	fputc('\n', f);
	if (strcmp(o->name, "format") == 0 && cmd && cmd->formats) {
		fputs("output format: ", f);
		roff_text(f, cmd->formats, strlen(cmd->formats));
		fprintf(f, " (default %.*s)\n", (int)strcspn(cmd->formats, ","), cmd->formats);
	} else {
		roff_text(f, o->help, strlen(o->help));
		fputc('\n', f);
	}
}

/* EXIT STATUS, ENVIRONMENT and FILES: the same on every page. */
static void man_common_sections(FILE *f)
{
	fputs(".SH EXIT STATUS\n", f);
	for (size_t i = 0; i < EXIT_CODE_COUNT; i++) {
		fprintf(f, ".TP\n.B %d\n", exit_codes[i].code);
		roff_text(f, exit_codes[i].meaning, strlen(exit_codes[i].meaning));
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n", f);
	for (size_t i = 0; i < ENVIRONMENT_COUNT; i++) {
		fputs(".TP\n.B ", f);
		roff_text(f, environment[i].name, strlen(environment[i].name));
		fputc('\n', f);
		roff_text(f, environment[i].meaning, strlen(environment[i].meaning));
		fputc('\n', f);
	}
	fputs(".SH FILES\n.TP\n.I " FWLENS_DATADIR "/topics.xml\n"
	      "the topic rules fwlens is built with, a starting point for \\-\\-rules; "
	      "\\fItopics.xsd\\fR is their schema.\n.TP\n.I " FWLENS_DATADIR "/tree.xsd\n"
	      "the schema of \\fBfwlens tree \\-\\-format xml\\fR.\n",
	      f);
}

static int write_man_page(const char *dir, const struct fw_command *cmd)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/fwlens-%s.1", dir, cmd->name);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "fwlens help: cannot write %s: %s\n", path, strerror(errno));
		return FW_EXIT_IO;
	}
	fprintf(f, ".TH FWLENS\\-%s 1 \"\" \"fwlens %s\" \"fwlens manual\"\n", cmd->name, FWLENS_VERSION);
	fprintf(f, ".SH NAME\nfwlens\\-%s \\- ", cmd->name);
	roff_text(f, cmd->summary, strlen(cmd->summary));
	fprintf(f, "\n.SH SYNOPSIS\n\\fBfwlens %s\\fR ", cmd->name);
	roff_text(f, cmd->synopsis, strlen(cmd->synopsis));
	fputs("\n.SH DESCRIPTION\n", f);
	roff_text(f, cmd->summary, strlen(cmd->summary));
	fputc('\n', f);
	if (cmd->description) {
		fputs(".PP\n", f);
		roff_paragraphs(f, cmd->description);
	}
	fputs(".SH OPTIONS\n", f);
	for (const struct fw_option *o = cmd->options; o && o->name; o++)
		man_option(f, o, cmd);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++)
		if (strcmp(o->name, "format") != 0 || cmd->formats)
			man_option(f, o, cmd);
	if (cmd->examples) {
		fputs(".SH EXAMPLES\n.nf\n", f);
		roff_text(f, cmd->examples, strlen(cmd->examples));
		fputs("\n.fi\n", f);
	}
	man_common_sections(f);
	fputs(".SH SEE ALSO\n\\fBfwlens\\fR(1)\n", f);
	bool ok = fflush(f) == 0 && !ferror(f);
	ok = fclose(f) == 0 && ok;
	return ok ? 0 : FW_EXIT_IO;
}

static int write_man_pages(const char *dir)
{
	char path[4096];
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		fprintf(stderr, "fwlens help: cannot create %s: %s\n", dir, strerror(errno));
		return FW_EXIT_IO;
	}
	snprintf(path, sizeof(path), "%s/fwlens.1", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "fwlens help: cannot write %s: %s\n", path, strerror(errno));
		return FW_EXIT_IO;
	}
	fprintf(f, ".TH FWLENS 1 \"\" \"fwlens %s\" \"fwlens manual\"\n", FWLENS_VERSION);
	fputs(".SH NAME\nfwlens \\- firmware, setup-form and ACPI analysis for AMD servers\n"
	      ".SH SYNOPSIS\n\\fBfwlens\\fR \\fIcommand\\fR [\\fIoptions\\fR] \\fIargs\\fR\n"
	      ".SH DESCRIPTION\nfwlens reads ASUS/AMI .CAP capsules, flash images, firmware volumes and modules, their "
	      "HII setup forms and NVRAM, ACPI tables and captured machine snapshots, and answers what matters for "
	      "IOMMU, SEV\\-SNP, ACS and GPU peer\\-to\\-peer.\n.SH COMMANDS\n",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		fprintf(f, ".TP\n\\fBfwlens\\-%s\\fR(1)\n", c->name);
		roff_text(f, c->summary, strlen(c->summary));
		fputc('\n', f);
	}
	fputs(".SH OPTIONS\nEvery command takes these options.\n", f);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++)
		man_option(f, o, NULL);
	fputs(".SH OUTPUT\nText goes to standard output, laid out for a terminal or a pager; colour only on a terminal. "
	      "Warnings and logs go to standard error. \\-\\-format json, xml and markdown print one document; "
	      "\\-\\-format jsonl prints one JSON object per line, each starting with \"source\" (and, for a machine, "
	      "\"host\" and \"captured\"), so the lines of many machines can be concatenated and grouped with "
	      "\\fBjq\\fR(1). With \\-o FILE the output is written to a temporary file renamed over FILE at the end: a "
	      "failed run leaves no partial file.\n",
	      f);
	man_common_sections(f);
	fputs(".SH SEE ALSO\n", f);
	for (size_t i = 0; i < fw_cli_command_count(); i++)
		fprintf(f, "%s\\fBfwlens\\-%s\\fR(1)", i ? ", " : "", fw_cli_command_at(i)->name);
	fputs(", \\fBjq\\fR(1), \\fBiasl\\fR(1)\n", f);
	bool ok = fflush(f) == 0 && !ferror(f);
	ok = fclose(f) == 0 && ok;
	if (!ok)
		return FW_EXIT_IO;
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		int rc = write_man_page(dir, fw_cli_command_at(i));
		if (rc)
			return rc;
	}
	return 0;
}

/* --- completion ------------------------------------------------------------------------------ */

static void print_words(FILE *f, const char *csv)
{
	for (const char *p = csv; *p; p++)
		fputc(*p == ',' ? ' ' : *p, f);
}

/* Every option of a command, common ones included, for a loop over both. */
static size_t command_options(const struct fw_command *c, const struct fw_option **out, size_t cap)
{
	size_t n = 0;
	for (const struct fw_option *o = c->options; o && o->name && n < cap; o++)
		out[n++] = o;
	for (const struct fw_option *o = fw_cli_common_options; o->name && n < cap; o++)
		if (strcmp(o->name, "format") != 0 || c->formats)
			out[n++] = o;
	return n;
}

/* A subcommand is required (snapshot capture|show) unless the synopsis shows it optional
 * ("[topo] SRC"). */
static bool subcommand_optional(const struct fw_command *c)
{
	return c->synopsis[0] == '[';
}

static void bash_case_label(FILE *f, const struct fw_command *c, const struct fw_option *o)
{
	fprintf(f, "\t\"%s --%s\"", c->name, o->name);
	if (o->short_name)
		fprintf(f, " | \"%s -%c\"", c->name, o->short_name);
	fputc(')', f);
}

static void bash_completion(FILE *f)
{
	fputs("# bash completion for fwlens (generated by 'fwlens help --completion bash')\n"
	      "\n"
	      "# Complete a word from a list; with \"list\", the last item of a comma-separated list.\n"
	      "_fwlens_words() {\n"
	      "\tlocal cur=$1 prefix=\n"
	      "\tif [ \"$3\" = list ] && [[ $cur == *,* ]]; then\n"
	      "\t\tprefix=${cur%,*},\n"
	      "\t\tcur=${cur##*,}\n"
	      "\tfi\n"
	      "\tCOMPREPLY=($(compgen -P \"$prefix\" -W \"$2\" -- \"$cur\"))\n"
	      "}\n"
	      "\n"
	      "_fwlens() {\n"
	      "\tlocal cur prev cmd opts subs only=\n"
	      "\tCOMPREPLY=()\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\t# --option=value: bash splits the word at '='\n"
	      "\tif [ \"$cur\" = = ]; then\n"
	      "\t\tcur=\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
	      "\tfi\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++)
		fprintf(f, "%s%s", i ? " " : "", fw_cli_command_at(i)->name);
	fputs(" --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcmd=${COMP_WORDS[1]}\n\tcase \"$cmd $prev\" in\n", f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		const struct fw_option *opts[64];
		size_t n = command_options(c, opts, 64);
		for (size_t k = 0; k < n; k++) {
			const struct fw_option *o = opts[k];
			if (!o->arg)
				continue;
			bash_case_label(f, c, o);
			switch (arg_kind(o, c)) {
			case ARG_WORDS: {
				char *v = option_values(o, c);
				fputs(" _fwlens_words \"$cur\" \"", f);
				if (v)
					print_words(f, v);
				fprintf(f, "\"%s; return ;;\n", takes_list(o) ? " list" : "");
				free(v);
				break;
			}
			case ARG_FILE: fputs(" COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", f); break;
			case ARG_DIR: fputs(" COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", f); break;
			case ARG_NONE: fputs(" return ;;\n", f); break;
			}
		}
	}
	fputs("\tesac\n\tcase \"$cmd\" in\n", f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		const struct fw_option *opts[64];
		size_t n = command_options(c, opts, 64);
		fprintf(f, "\t%s) opts=\"", c->name);
		for (size_t k = 0; k < n; k++) {
			if (opts[k]->short_name)
				fprintf(f, "-%c ", opts[k]->short_name);
			fprintf(f, "--%s%s", opts[k]->name, k + 1 < n ? " " : "");
		}
		fputs("\" subs=\"", f);
		if (c->subcommands)
			print_words(f, c->subcommands);
		if (strcmp(c->name, "help") == 0)
			for (size_t j = 0; j < fw_cli_command_count(); j++)
				fprintf(f, "%s%s", j ? " " : "", fw_cli_command_at(j)->name);
		fputs("\"", f);
		/* a required subcommand (or help's command name) is the only thing at its place */
		if ((c->subcommands && !subcommand_optional(c)) || strcmp(c->name, "help") == 0)
			fputs(" only=1", f);
		fputs(" ;;\n", f);
	}
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tif [ -n \"$subs\" ] && [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
	      "\t\t[ -n \"${only:-}\" ] && return\n"
	      "\tfi\n"
	      "\t[ \"$cmd\" = help ] || [ \"$cmd\" = version ] && return\n"
	      "\tCOMPREPLY+=($(compgen -f -- \"$cur\"))\n"
	      "}\n"
	      "complete -o filenames -F _fwlens fwlens\n",
	      f);
}

/* zsh descriptions in single quotes and brackets: drop the characters that would end them. */
static void zsh_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++)
		if (*p != '\'' && *p != '[' && *p != ']' && *p != ':' && *p != '\\')
			fputc(*p, f);
}

static void zsh_option_spec(FILE *f, const struct fw_option *o, const struct fw_command *c)
{
	bool repeat = strcmp(o->name, "verbose") == 0;
	if (o->short_name && repeat)
		fprintf(f, "      '*'{-%c,--%s}'[", o->short_name, o->name);
	else if (o->short_name)
		fprintf(f, "      '(-%c --%s)'{-%c,--%s}'[", o->short_name, o->name, o->short_name, o->name);
	else
		fprintf(f, "      '--%s[", o->name);
	zsh_text(f, strcmp(o->name, "format") == 0 ? "output format" : o->help);
	fputc(']', f);
	if (o->arg) {
		fputc(':', f);
		zsh_text(f, o->arg);
		fputc(':', f);
		switch (arg_kind(o, c)) {
		case ARG_WORDS: {
			char *v = option_values(o, c);
			if (takes_list(o)) {
				fprintf(f, "_values -s , %s ", o->name);
			} else {
				fputc('(', f);
			}
			if (v)
				print_words(f, v);
			if (!takes_list(o))
				fputc(')', f);
			free(v);
			break;
		}
		case ARG_FILE: fputs("_files", f); break;
		case ARG_DIR: fputs("_files -/", f); break;
		case ARG_NONE: fputs(" ", f); break;
		}
	}
	fputs("' \\\n", f);
}

static void zsh_completion(FILE *f)
{
	fputs("#compdef fwlens\n# zsh completion for fwlens (generated by 'fwlens help --completion zsh')\n"
	      "_fwlens() {\n  local -a commands\n  commands=(\n",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		fprintf(f, "    '%s:", c->name);
		zsh_text(f, c->summary);
		fputs("'\n", f);
	}
	fputs("  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n"
	      "  local cmd=${words[2]}\n  shift words\n  (( CURRENT-- ))\n  case $cmd in\n",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		const struct fw_option *opts[64];
		size_t n = command_options(c, opts, 64);
		fprintf(f, "  %s)\n    _arguments -s \\\n", c->name);
		for (size_t k = 0; k < n; k++)
			zsh_option_spec(f, opts[k], c);
		if (strcmp(c->name, "help") == 0) {
			fputs("      '1:command:(", f);
			for (size_t j = 0; j < fw_cli_command_count(); j++)
				fprintf(f, "%s%s", j ? " " : "", fw_cli_command_at(j)->name);
			fputs(")'\n    ;;\n", f);
			continue;
		}
		if (strcmp(c->name, "version") == 0) {
			fputs("      ':'\n    ;;\n", f);
			continue;
		}
		if (c->subcommands) {
			if (subcommand_optional(c)) {
				fputs("      '1:subcommand or file:_alternative \"subcommands:subcommand:(", f);
				print_words(f, c->subcommands);
				fputs(")\" \"files:file:_files\"' \\\n", f);
			} else {
				fputs("      '1:subcommand:(", f);
				print_words(f, c->subcommands);
				fputs(")' \\\n", f);
			}
		}
		fputs("      '*:file:_files'\n    ;;\n", f);
	}
	fputs("  esac\n}\n_fwlens \"$@\"\n", f);
}

/* --- the command table as JSON --------------------------------------------------------------- */

static json_t *csv_array(const char *csv)
{
	json_t *a = json_array();
	for (const char *p = csv; p && *p;) {
		size_t n = strcspn(p, ",");
		json_array_append_new(a, json_stringn(p, n));
		p += n;
		if (*p == ',')
			p++;
	}
	return a;
}

static json_t *option_json(const struct fw_option *o, const struct fw_command *c)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", json_string(o->name));
	char sh[2] = {o->short_name, 0};
	json_object_set_new(j, "short", o->short_name ? json_string(sh) : json_null());
	json_object_set_new(j, "arg", o->arg ? json_string(o->arg) : json_null());
	json_object_set_new(j, "help", json_string(o->help));
	char *v = option_values(o, c);
	json_object_set_new(j, "values", v ? csv_array(v) : json_null());
	free(v);
	return j;
}

/* Examples are lines "fwlens ...  # what it does". */
static json_t *examples_json(const char *text)
{
	json_t *a = json_array();
	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = fw_xstrndup(p, len);
		char *hash = strstr(line, "  #");
		json_t *e = json_object();
		if (hash) {
			char *comment = hash + 3;
			while (*comment == ' ')
				comment++;
			json_object_set_new(e, "comment", json_string(comment));
			while (hash > line && hash[-1] == ' ')
				hash--;
			*hash = '\0';
		}
		json_object_set_new(e, "command", json_string(line));
		if (!json_object_get(e, "comment"))
			json_object_set_new(e, "comment", json_null());
		/* command first */
		json_t *ordered = json_object();
		json_object_set(ordered, "command", json_object_get(e, "command"));
		json_object_set(ordered, "comment", json_object_get(e, "comment"));
		json_decref(e);
		json_array_append_new(a, ordered);
		free(line);
		p = eol ? eol + 1 : p + len;
	}
	return a;
}

static json_t *command_json(const struct fw_command *c)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", json_string(c->name));
	json_object_set_new(j, "synopsis", json_string(c->synopsis));
	json_object_set_new(j, "summary", json_string(c->summary));
	json_object_set_new(j, "description", c->description ? json_string(c->description) : json_null());
	json_object_set_new(j, "formats", c->formats ? csv_array(c->formats) : json_array());
	json_object_set_new(j, "subcommands", c->subcommands ? csv_array(c->subcommands) : json_array());
	json_object_set_new(j, "min_args", json_integer(c->min_args));
	json_object_set_new(j, "max_args", c->max_args < 0 ? json_null() : json_integer(c->max_args));
	json_t *opts = json_array();
	for (const struct fw_option *o = c->options; o && o->name; o++)
		json_array_append_new(opts, option_json(o, c));
	json_object_set_new(j, "options", opts);
	json_object_set_new(j, "examples", examples_json(c->examples));
	return j;
}

static json_t *help_json(void)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "fwlens", json_string(FWLENS_VERSION));
	json_object_set_new(doc, "usage", json_string("fwlens <command> [options] <args>"));
	json_t *common = json_array();
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++)
		json_array_append_new(common, option_json(o, NULL));
	json_object_set_new(doc, "common_options", common);
	json_t *cmds = json_array();
	for (size_t i = 0; i < fw_cli_command_count(); i++)
		json_array_append_new(cmds, command_json(fw_cli_command_at(i)));
	json_object_set_new(doc, "commands", cmds);
	json_t *codes = json_array();
	for (size_t i = 0; i < EXIT_CODE_COUNT; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "code", json_integer(exit_codes[i].code));
		json_object_set_new(e, "meaning", json_string(exit_codes[i].meaning));
		json_array_append_new(codes, e);
	}
	json_object_set_new(doc, "exit_codes", codes);
	return doc;
}

/* --- the command ----------------------------------------------------------------------------- */

static json_t *command_document(const void *c)
{
	return command_json(c);
}

static void command_text(struct fw_cli *cli, const void *c)
{
	/* our own text and colours only: past the filter, which lets no raw escape through */
	fw_cli_print_command_help(fw_cli_out_bytes(cli), c, cli->color);
}

static json_t *usage_document(const void *ctx)
{
	return help_json();
}

static void usage_text(struct fw_cli *cli, const void *ctx)
{
	fw_cli_print_usage(fw_cli_out(cli));
}

static int run_help(struct fw_cli *cli)
{
	const char *man_dir = fw_cli_opt(cli, "man-dir");
	const char *shell = fw_cli_opt(cli, "completion");
	FILE *f = fw_cli_out(cli);
	if (man_dir)
		return write_man_pages(man_dir);
	if (shell) {
		if (strcmp(shell, "bash") == 0)
			bash_completion(f);
		else if (strcmp(shell, "zsh") == 0)
			zsh_completion(f);
		else {
			char hint[160];
			return fw_cli_usage_error(cli, "--completion takes bash or zsh, not '%s'%s", shell,
						  fw_nearest_hint(shell, "bash,zsh", hint, sizeof(hint)));
		}
		return 0;
	}
	const struct fw_command *c = NULL;
	if (cli->argc == 1 && !(c = fw_cli_find(cli->argv[0]))) {
		return fw_cli_usage_error(cli, "no command '%s'. See 'fwlens help'.", cli->argv[0]);
	}
	if (c)
		fw_cli_emit(cli, &(struct fw_emit){"command", command_document, command_text, NULL, NULL, c, NULL});
	else
		fw_cli_emit(cli, &(struct fw_emit){"help", usage_document, usage_text, NULL, NULL, NULL, NULL});
	return 0;
}

static const struct fw_option help_options[] = {
	{"man-dir", 0, "DIR", "write the man pages (fwlens.1, fwlens-COMMAND.1) into DIR", NULL},
	{"completion", 0, "SHELL", "print the shell completion script for bash or zsh", "bash,zsh"},
	{0},
};

FW_COMMAND(help,
	.synopsis = "[COMMAND] [--man-dir DIR] [--completion bash|zsh] [--format text|json|xml]",
	.summary = "Show help for fwlens or one command; write man pages or completion scripts",
	.description =
		"Without COMMAND, lists the commands, the options every command takes and the exit codes; with "
		"COMMAND, its usage, description, options and examples (as 'fwlens COMMAND --help' does).\n\n"
		"--format json prints the same as data: every command with its synopsis, formats, subcommands, "
		"options (with the values they take) and examples, for scripts and editors. --man-dir writes a "
		"manual page per command and fwlens.1; --completion prints a bash or zsh completion script that "
		"knows the commands, options, subcommands, --format and --profile values and the topic names of "
		"the built-in rules.",
	.formats = "text,json,xml",
	.options = help_options,
	.examples = "fwlens help tree  # the help of fwlens tree\n"
		    "fwlens help --format json | jq -r '.commands[].name'  # every command\n"
		    "fwlens help --man-dir man && man -l man/fwlens-query.1\n"
		    "fwlens help --completion bash > /etc/bash_completion.d/fwlens",
	.min_args = 0, .max_args = 1, .run = run_help, .order = 99);
