/* The hostile samples: BIOS 1104 with a third forms module whose every text tries to break out of
 * the output language fwlens writes it in, and the 1104 machine with DMI strings, host name,
 * kernel command line, file names and GPU model of the same kind.
 *
 * Outputs: ESC8000A-E13-HOSTILE.CAP, sysroot-hostile/. The image stays valid firmware (it decodes
 * without errors) so that every writer is reached. tests/cli/t9040-hostile-writes.sh spells the
 * same texts and checks that they come back exactly where a format can carry them.
 *
 * Which bytes each place can hold: HII strings are UCS-2, so their hostile characters are the C0
 * controls (ESC, BEL, LF), C1 controls U+0080..U+009F and lone surrogates (written here as the
 * three-byte forms ED A0 80 and ED BF BF that sb_put_ucs2 turns into D800 and DFFF); varstore names
 * are ASCII bytes in IFR and NVAR and hold anything but NUL, invalid UTF-8 included; sysfs and
 * proc files and file names are bytes. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "parsers/ucs2.h"

/* ---- texts ---------------------------------------------------------------------------------- */

/* Shell, markdown and HTML metacharacters with no control character: an AMISCE file can carry
 * these faithfully, so the plan of this question must round-trip. */
#define HOSTILE_QUOTES_PROMPT "Hostile quotes 'single' \"double\" $(touch PWNED) `touch PWNED` | # <script>x</script> &amp;"
/* Every control character an HII string can carry */
#define HOSTILE_ONEOF_PROMPT "Hostile one-of \x1b[31mred\x1b[0m\x07 \xc2\x9b" "2J \xc2\x85 $(touch PWNED)\nsecond line"
#define HOSTILE_NUMERIC_PROMPT "Hostile numeric \xed\xa0\x80 lone \xed\xbf\xbf surrogates \x1b]0;title\x07"
#define HOSTILE_CHECKBOX_PROMPT "Hostile checkbox\n# Forged heading\n| forged | row |"
#define HOSTILE_STRING_PROMPT "Hostile string \xc2\x80\xc2\x9f C1 'q' \"q\""
/* The varstore name: bytes, no NUL; "Setup" in it so snapshot capture keeps the variable. */
#define HOSTILE_VARSTORE "HostileSetup'\"$(touch PWNED)`id`|#<x>\n\x1b[2J\x07\xc2\x85\xff\xfe"

/* A help text of 3000 characters: long strings must not be cut into invalid text or overflow. */
static const char *long_text(void)
{
	static char text[3001];
	if (!text[0]) {
		static const char unit[] = "long $(touch PWNED) 'q' | ";
		for (size_t i = 0; i < sizeof(text) - 1; i++)
			text[i] = unit[i % (sizeof(unit) - 1)];
	}
	return text;
}

static struct varstore *hostile_varstore(void)
{
	struct varstore *vs = vs_new(HOSTILE_VARSTORE, "5EB7E0A3-1E5D-4D39-9B44-8C0F1D2A7B61", 0x7100, 0x7);
	/* the field names become the x-UEFI-AMI keywords */
	vs_field(vs, "HostileQuotes'\"$(touch PWNED)`id`|#<k>", 1);
	vs_field(vs, "HostileOneOf\x1b[2J\x07\xc2\x85\nLF", 1);
	vs_field(vs, "HostileNumeric\xed\xa0\x80", 2);
	vs_field(vs, "HostileCheckbox#<script>", 1);
	vs_field(vs, "HostileString", 32);
	return vs;
}

static void hostile_define(struct formset *fs)
{
	f_formset_begin(fs);
	f_varstore(fs, hostile_varstore());
	f_form(fs, 0x100, "Hostile \x1b[2Jroot\x07 form\n# title");
	f_subtitle(fs, "Subtitle <b>bold</b> `x` \xc2\x9b" "31m");
	f_text(fs, "Hostile text \x1b[5m", "Value\n$(touch PWNED)\x07");
	f_ref(fs, "Hostile page 'goto' \"x\" $(touch PWNED)\x1b[1m", "Goto help\n| a | b |", 0x101);
	f_form_end(fs);

	f_form(fs, 0x101, "Hostile page 'goto' \"x\" $(touch PWNED)\x1b[1m");
	q_oneof(fs, &(struct qdef){.prompt = HOSTILE_QUOTES_PROMPT,
				   .help = "Help 'single' \"double\" $(touch PWNED) `touch PWNED` | # <script>alert(1)</script>",
				   .field = "HostileQuotes'\"$(touch PWNED)`id`|#<k>",
				   .opts = OPTS({"Option 'single' \"double\" $(touch PWNED)", 0}, {"Option `touch PWNED` | # <i>x</i>", 1},
						{"Option \xc3\xa9t\xc3\xa9 \xe4\xb8\xad \\ \\n %s %n", 2}),
				   .def = 0});
	q_oneof(fs, &(struct qdef){.prompt = HOSTILE_ONEOF_PROMPT,
				   .help = "Help line\n# not a heading\n<script>alert(1)</script>\n| a | b |\n\x1b[31mred\x1b[0m\x07 end",
				   .field = "HostileOneOf\x1b[2J\x07\xc2\x85\nLF",
				   .opts = OPTS({"Option 'single' \"double\" $(touch PWNED)", 0},
						/* the default: a forged AMISCE block if written raw */
						{"Default\nSetup Question\t= Forged\nToken\t=99\t// Do NOT change this line\n"
						 "Offset\t=0\nWidth\t=01\nBIOS Default\t=[00]Forged",
						 1},
						{"Option \x1b]0;title\x07 bell \x1b[2J", 2}, {"Option C1 \xc2\x80\xc2\x85\xc2\x9b\xc2\x9f end", 3},
						{"Option lone \xed\xa0\x80 \xed\xbf\xbf surrogates", 4},
						{"Option `touch PWNED` | # <b>b</b> &amp;", 5}, {long_text(), 6}),
				   .def = 1});
	q_numeric(fs, &(struct qdef){.prompt = HOSTILE_NUMERIC_PROMPT, .help = long_text(),
				     .field = "HostileNumeric\xed\xa0\x80", .min = 0, .max = 1000, .step = 1, .def = 7});
	q_checkbox(fs, &(struct qdef){.prompt = HOSTILE_CHECKBOX_PROMPT, .help = "<script>alert('x')</script>\n```\nfence",
				      .field = "HostileCheckbox#<script>", .def = 0});
	q_string(fs, &(struct qdef){.prompt = HOSTILE_STRING_PROMPT, .help = "String help \xc2\x9b" "6n",
				    .field = "HostileString", .max_size = 16});
	f_form_end(fs);
	f_formset_end(fs);
}

void hostile_forms(struct variant *v)
{
	static struct formset fs;
	memset(&fs, 0, sizeof(fs));
	fs.module = "Hostile\x1b]0;module\x07 $(touch PWNED) 'm' \xc2\x85";
	fs.guid = sample_guid("0E1E6C58-2B3D-4F0A-8D61-6F2D9A41C7E3");
	fs.title = "Hostile formset \x1b[2J\x07 `id`";
	fs.help = "Formset help\n# heading";
	fs.class_id = 1;
	fs.usual_qflags = 0x10;
	fs.config_keywords = true;
	fs_run(&fs, v->version, hostile_define);
	v->extra = &fs;
}

/* ---- the machine ---------------------------------------------------------------------------- */

/* The 1104 machine, then every string a reader shows replaced by a hostile one. */
void write_hostile_sysroot(struct variant *v, const char *rel)
{
	write_sysroot(v, rel, STORY_REFERENCE);
	char *old_root = sample_strdup(out_root());
	out_set_root(out_path(rel));

	static const struct {
		const char *name, *value;
	} dmi[] = {
		{"bios_version", "1104 \xff\xfe not UTF-8 $(touch PWNED)\x1b[31m"},
		{"bios_vendor", "Vendor 'single' \"double\" `touch PWNED` | # <script>x</script>"},
		{"board_name", "K15PG-D24\x1b]0;title\x07\xc2\x9b" "2J"},
		{"product_name", "ESC8000A-E13\n# Forged heading\n| forged | row |"},
		{"sys_vendor", "ASUSTeK \xc2\x85\xc2\x80 \xe2\x80\xae RTL \x7f DEL"},
		{"board_vendor", "Board vendor \xc0\xaf overlong \xed\xa0\x80 surrogate"},
	};
	for (size_t i = 0; i < ARRAY_LEN(dmi); i++)
		out_text(sample_printf("sys/class/dmi/id/%s", dmi[i].name), "%s\n", dmi[i].value);
	out_text("proc/sys/kernel/hostname", "%s\n", "host'\"$(touch PWNED)`id`\x1b]0;pwn\x07\xc2\x85\xff{x=\"y\"}");
	out_text("proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-%s root=/dev/mapper/pve-root ro amd_iommu=on iommu=pt "
				 "x='$(touch PWNED)' y=\"`touch PWNED`\" \x1b[2J\x07 \xc2\x9b \xff|# <script>%s\n",
		 v->kernel, long_text());
	out_text("etc/kernel/cmdline", "root=ZFS=rpool/ROOT/pve-1 boot=zfs iommu=pt '$(touch PWNED)' \x1b[2J\n");
	out_text("etc/modprobe.d/$(touch PWNED) \x1b[2J\n\xff.conf", "options vfio-pci ids=10de:2bb5 # \x1b]0;x\x07\n");
	out_text("etc/modprobe.d/`id`'q'.conf", "options kvm_amd sev_snp=1 \xc2\x85\n");

	/* the hostile forms' variable, with a value other than its default */
	const struct varstore *vs = v->extra->vs[0];
	uint8_t *d = vs_defaults(vs, 0);
	vs_set(vs, d, "HostileQuotes'\"$(touch PWNED)`id`|#<k>", 1);
	vs_set(vs, d, "HostileNumeric\xed\xa0\x80", 42);
	/* efivarfs names the file with the UTF-8 of the variable's CHAR16 name, which firmware made by
	 * widening the IFR name's bytes: 0xFF is written as U+00FF */
	char fname[2 * sizeof(HOSTILE_VARSTORE) + 1];
	efivar(fw_char8_to_utf8_buf((const uint8_t *)vs->name, strlen(vs->name), fname, sizeof(fname)), &vs->guid,
	       vs->attributes, d, vs->size);
	free(d);
	out_set_root(old_root);
}
