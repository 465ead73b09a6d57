/* Writers of `fwlens ifr` and `fwlens settings` (tools/cli/cmd-ifr.c, cmd-settings.c). */
#ifndef FW_IFR_WRITERS_H
#define FW_IFR_WRITERS_H

#include "parsers/json-text.h"
#include <stdio.h>

#include "cli.h"
#include "ifr/hii.h"
#include "ifr/settings.h"
#include "tools/query/source.h"

/* IFRExtractor-RS 1.6.0 line shapes, one form package (ifr-write-ifrx.c). */
void fw_ifrx_write(FILE *f, const struct fw_hii_form_pkg *fp);

/* JSON (ifr-json.c) */
json_t *fw_ifr_json_expr(const struct fw_ifr_expr *e, const struct fw_settings_env *env);
json_t *fw_ifr_json_question(const struct fw_setting *st, bool with_current);
json_t *fw_ifr_json_pairing(const struct fw_hii_form_pkg *fp);
json_t *fw_ifr_json_formset(struct fw_settings *s, const struct fw_hii_form_pkg *fp);

/* Shared by both commands (cmd-ifr.c): open FILE with --lang, report what was found. */
int fw_ifr_cli_open(struct fw_cli *cli, struct fw_hii_input *in);

/* The forms a command prints: from a BIOS file (FILE), or from a machine (a snapshot or root
 * folder; forms of --image or of the image stored in the snapshot, values from its efivars). */
struct fw_ifr_cli_forms {
	struct fw_hii_input own;  /* FILE */
	struct fw_source src;     /* a machine */
	bool machine;             /* src is open (a machine, or a firmware file with values) */
	struct fw_hii_input *in;  /* the forms */
	struct fw_settings settings_own;
	struct fw_settings *settings; /* built for --module; bound to the machine's variables */
	struct fw_setlist *list;      /* instead, with values: a settings list (JSON, AMISCE export) */
};
/* With `values` a firmware file is opened as a source too, so its own NVRAM store (or --vars)
 * gives current values, as every other command reads them. */
int fw_ifr_cli_forms_open(struct fw_cli *cli, struct fw_ifr_cli_forms *f, bool values);
void fw_ifr_cli_forms_close(struct fw_ifr_cli_forms *f);
/* One question in the AMISCE export layout (sce-write.c), "*" or Value on `value` (else on the
 * default); value_text for strings and other kinds. Writers check every question with
 * fw_sce_check_question before they write the first: a question the format cannot carry
 * faithfully refuses the whole script (FW_E_UNWRITABLE, naming the setting and the field). */
bool fw_sce_check_question(const struct fw_setting *st, bool has_value, const char *value_text, struct fw_error *err);
void fw_sce_write_question(FILE *f, const struct fw_setting *st, bool has_value, uint64_t value, const char *value_text);
/* An AMISCE export written back in its own layout (sce-write.c): every line in its place with the
 * file's line end; the questions in `ch` with their "*" (or Value number) on the new value. */
struct fw_amisce;
struct fw_amisce_question;
struct fw_sce_change {
	const struct fw_amisce_question *q;
	uint64_t value;
};
void fw_sce_write_export(struct fw_cli *cli, const struct fw_amisce *a, const struct fw_sce_change *ch, size_t nch);
/* One line of text with CR/LF folded to spaces (help texts carry line breaks). */
void fw_ifr_put_line(FILE *f, const char *s);

#endif
