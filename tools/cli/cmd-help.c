/* fwlens help: usage, per-command help, man pages and shell completion, all generated from the
 * command table so they cannot drift apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "output-text.h"

static void print_option(FILE *f, const struct fw_option *o, const char *formats)
{
	char left[96];
	if (o->short_name)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	if (strcmp(o->name, "format") == 0 && formats)
		fprintf(f, "  %-28s output format: %s (default %.*s)\n", left, formats,
			(int)strcspn(formats, ","), formats);
	else
		fprintf(f, "  %-28s %s\n", left, o->help);
}

void fw_cli_print_command_help(FILE *f, const struct fw_command *cmd, bool color)
{
	const char *b = color ? "\033[1m" : "", *r = color ? "\033[0m" : "";
	fprintf(f, "%susage:%s fwlens %s %s\n\n", b, r, cmd->name, cmd->synopsis);
	fw_text_wrap(f, cmd->summary, "", 96);
	if (cmd->description) {
		fputc('\n', f);
		fw_text_wrap(f, cmd->description, "", 96);
	}
	fprintf(f, "\n%soptions:%s\n", b, r);
	for (const struct fw_option *o = cmd->options; o && o->name; o++)
		print_option(f, o, cmd->formats);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++) {
		if (strcmp(o->name, "format") == 0 && !cmd->formats)
			continue;
		print_option(f, o, cmd->formats);
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
		   "fwlens reads firmware images (ASUS/AMI .CAP capsules, flash images, volumes, modules), their setup\n"
		   "forms and NVRAM, and ACPI tables, and answers what matters for IOMMU, SEV-SNP, ACS and GPU P2P.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		fprintf(f, "  %-11s %s\n", c->name, c->summary);
	}
	fprintf(f, "\n'fwlens help <command>' or 'fwlens <command> --help' shows one command.\n"
		   "Exit codes: 0 ok, 1 differences found or checks failed, 2 usage, 3 bad input, 4 I/O or missing tool.\n");
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

static void man_option(FILE *f, const struct fw_option *o, const char *formats)
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
	if (strcmp(o->name, "format") == 0 && formats) {
		fputs("output format: ", f);
		roff_text(f, formats, strlen(formats));
		fputc('\n', f);
	} else {
		roff_text(f, o->help, strlen(o->help));
		fputc('\n', f);
	}
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
		man_option(f, o, cmd->formats);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++)
		if (strcmp(o->name, "format") != 0 || cmd->formats)
			man_option(f, o, cmd->formats);
	if (cmd->examples) {
		fputs(".SH EXAMPLES\n.nf\n", f);
		roff_text(f, cmd->examples, strlen(cmd->examples));
		fputs("\n.fi\n", f);
	}
	fputs(".SH EXIT STATUS\n0 ok; 1 differences found or checks failed; 2 usage error; 3 bad input; "
	      "4 I/O error or missing helper program.\n.SH SEE ALSO\n\\fBfwlens\\fR(1)\n",
	      f);
	bool ok = fflush(f) == 0 && !ferror(f);
	ok = fclose(f) == 0 && ok;
	return ok ? 0 : FW_EXIT_IO;
}

static int write_man_pages(const char *dir)
{
	char path[4096];
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
	fputs(".SH EXIT STATUS\n0 ok; 1 differences found or checks failed; 2 usage error; 3 bad input; "
	      "4 I/O error or missing helper program.\n.SH ENVIRONMENT\n\\fBNO_COLOR\\fR disables colour.\n",
	      f);
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

static void option_words(FILE *f, const struct fw_command *c)
{
	for (const struct fw_option *o = c->options; o && o->name; o++)
		fprintf(f, " --%s", o->name);
	for (const struct fw_option *o = fw_cli_common_options; o->name; o++)
		if (strcmp(o->name, "format") != 0 || c->formats)
			fprintf(f, " --%s", o->name);
}

static void print_values(FILE *f, const char *csv)
{
	for (const char *p = csv; *p; p++)
		fputc(*p == ',' ? ' ' : *p, f);
}

static void bash_completion(FILE *f)
{
	fputs("# bash completion for fwlens (generated by 'fwlens help --completion bash')\n"
	      "_fwlens() {\n"
	      "\tlocal cur prev cmd\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tcmd=${COMP_WORDS[1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++)
		fprintf(f, "%s%s", i ? " " : "", fw_cli_command_at(i)->name);
	fputs(" --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase \"$cmd:$prev\" in\n", f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		if (c->formats) {
			fprintf(f, "\t%s:--format) COMPREPLY=($(compgen -W \"", c->name);
			print_values(f, c->formats);
			fputs("\" -- \"$cur\")); return ;;\n", f);
		}
		for (const struct fw_option *o = c->options; o && o->name; o++)
			if (o->values) {
				fprintf(f, "\t%s:--%s) COMPREPLY=($(compgen -W \"", c->name, o->name);
				print_values(f, o->values);
				fputs("\" -- \"$cur\")); return ;;\n", f);
			}
	}
	fputs("\t*:--color) COMPREPLY=($(compgen -W \"auto always never\" -- \"$cur\")); return ;;\n"
	      "\t*:-o|*:--output|*:--key|*:--vars|*:--previous|*:--root|*:--image|*:--dmesg) COMPREPLY=($(compgen -f -- "
	      "\"$cur\")); return ;;\n"
	      "\tesac\n\tcase \"$cmd\" in\n",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		fprintf(f, "\t%s) opts=\"", c->name);
		option_words(f, c);
		if (c->subcommands) {
			fputc(' ', f);
			print_values(f, c->subcommands);
		}
		if (strcmp(c->name, "help") == 0)
			for (size_t j = 0; j < fw_cli_command_count(); j++)
				fprintf(f, " %s", fw_cli_command_at(j)->name);
		fputs("\" ;;\n", f);
	}
	fputs("\t*) opts=\"--help\" ;;\n\tesac\n"
	      "\tif [[ \"$cur\" == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telse\n\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\") $(compgen -f -- \"$cur\"))\n\tfi\n}\n"
	      "complete -o filenames -F _fwlens fwlens\n",
	      f);
}

static void zsh_option_spec(FILE *f, const struct fw_option *o, const char *values)
{
	fprintf(f, "    '--%s[", o->name);
	for (const char *p = o->help; *p; p++) {
		if (*p == '\'' || *p == '[' || *p == ']' || *p == ':')
			continue;
		fputc(*p, f);
	}
	fputc(']', f);
	if (o->arg) {
		fprintf(f, ":%s:", o->arg);
		if (values) {
			fputc('(', f);
			print_values(f, values);
			fputc(')', f);
		} else {
			fputs("_files", f);
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
		for (const char *p = c->summary; *p; p++)
			if (*p != '\'' && *p != ':')
				fputc(*p, f);
		fputs("'\n", f);
	}
	fputs("  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n"
	      "  local cmd=${words[2]}\n  shift words\n  (( CURRENT-- ))\n  case $cmd in\n",
	      f);
	for (size_t i = 0; i < fw_cli_command_count(); i++) {
		const struct fw_command *c = fw_cli_command_at(i);
		fprintf(f, "  %s)\n    _arguments \\\n", c->name);
		for (const struct fw_option *o = c->options; o && o->name; o++)
			zsh_option_spec(f, o, o->values);
		for (const struct fw_option *o = fw_cli_common_options; o->name; o++) {
			if (strcmp(o->name, "format") == 0 && !c->formats)
				continue;
			zsh_option_spec(f, o, strcmp(o->name, "format") == 0 ? c->formats : o->values);
		}
		if (c->subcommands) {
			fputs("      '1:subcommand:(", f);
			print_values(f, c->subcommands);
			fputs(")' \\\n", f);
		}
		fputs("      '*:file:_files'\n    ;;\n", f);
	}
	fputs("  esac\n}\n_fwlens \"$@\"\n", f);
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
		else
			return fw_cli_usage_error(cli, "--completion takes bash or zsh, not '%s'", shell);
		return 0;
	}
	if (cli->argc == 0) {
		fw_cli_print_usage(f);
		return 0;
	}
	const struct fw_command *c = fw_cli_find(cli->argv[0]);
	if (!c) {
		fprintf(stderr, "fwlens help: no command '%s'. See 'fwlens help'.\n", cli->argv[0]);
		return FW_EXIT_USAGE;
	}
	fw_cli_print_command_help(f, c, cli->color);
	return 0;
}

static const struct fw_option help_options[] = {
	{"man-dir", 0, "DIR", "write the man pages (fwlens.1, fwlens-COMMAND.1) into DIR", NULL},
	{"completion", 0, "SHELL", "print the shell completion script for bash or zsh", "bash,zsh"},
	{0},
};

FW_COMMAND(help,
	.synopsis = "[COMMAND] [--man-dir DIR] [--completion bash|zsh]",
	.summary = "Show help for fwlens or one command; write man pages or completion scripts",
	.options = help_options,
	.examples = "fwlens help tree\nfwlens help --completion bash > /etc/bash_completion.d/fwlens",
	.min_args = 0, .max_args = 1, .run = run_help, .order = 99);
