/* HII string packages, IFR decoding, expressions, pairing and the settings model. */
#include "harness.h"
#include "ifr-build.h"
#include "ifr/hii.h"
#include "ifr/ifr-expr.h"
#include "ifr/settings.h"
#include "tools/query/source.h"

#include <stdlib.h>

/* ---- string packages ---- */

TEST(hii_strings_every_block_type)
{
	struct tb b = {0};
	size_t at = tb_pkg_begin(&b);
	const char *lang = "zh-Hans";
	uint32_t hdr = 46 + 8;
	tb_u32(&b, hdr), tb_u32(&b, hdr);
	for (int i = 0; i < 16; i++)
		tb_u16(&b, 0);
	tb_u16(&b, 1);
	tb_put(&b, lang, 8);
	tb_u8(&b, 0x14), tb_ucs2(&b, "A");                                  /* 1 */
	tb_u8(&b, 0x15), tb_u8(&b, 0), tb_ucs2(&b, "B");                    /* 2 */
	tb_u8(&b, 0x16), tb_u16(&b, 2), tb_ucs2(&b, "C"), tb_ucs2(&b, "D"); /* 3, 4 */
	tb_u8(&b, 0x17), tb_u8(&b, 1), tb_u16(&b, 1), tb_ucs2(&b, "E");     /* 5 */
	tb_u8(&b, 0x10), tb_put(&b, "F", 2);                                /* 6 */
	tb_u8(&b, 0x11), tb_u8(&b, 0), tb_put(&b, "G", 2);                  /* 7 */
	tb_u8(&b, 0x12), tb_u16(&b, 2), tb_put(&b, "H", 2), tb_put(&b, "I\xE9", 3); /* 8, 9 */
	tb_u8(&b, 0x13), tb_u8(&b, 0), tb_u16(&b, 1), tb_put(&b, "J", 2);   /* 10 */
	tb_u8(&b, 0x20), tb_u16(&b, 1);                                     /* 11 = "A" */
	tb_u8(&b, 0x21), tb_u16(&b, 3);                                     /* 12..14 skipped */
	tb_u8(&b, 0x22), tb_u8(&b, 1);                                      /* 15 skipped */
	tb_u8(&b, 0x30), tb_u8(&b, 0x77), tb_u8(&b, 5), tb_u16(&b, 0xBEEF); /* EXT1: length counts the header */
	tb_u8(&b, 0x31), tb_u8(&b, 0x40), tb_u16(&b, 4 + 1 + 2 + 4 + 8);    /* SIBT_FONT */
	tb_u8(&b, 1), tb_u16(&b, 12), tb_u32(&b, 0), tb_ucs2(&b, "Sys");
	tb_u8(&b, 0x32), tb_u8(&b, 0x99), tb_u32(&b, 6);                    /* EXT4, header only */
	tb_u8(&b, 0x14), tb_ucs2(&b, "K");                                  /* 16 */
	tb_u8(&b, 0);
	tb_pkg_end(&b, at, 0x04);

	struct fw_view v = fw_view_make(b.p, b.n, 0);
	struct fw_error err;
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_hii_strings s;
	CHECK_MSG(fw_hii_strings_check(&v, &err), "check: %s", err.msg);
	CHECK_MSG(fw_hii_strings_parse(&a, &v, 4096, &s, &err), "parse: %s", err.msg);
	CHECK_STR(s.language, "zh-Hans");
	CHECK(!s.config_language);
	CHECK_EQ(s.max_id, 16);
	CHECK_EQ(s.present, 12);
	CHECK_EQ(s.skipped, 4);
	CHECK_EQ(s.duplicates, 1);
	CHECK_EQ(s.fonts, 1);
	CHECK_EQ(s.scsu_non_ascii, 1);
	const char *want[] = {NULL, "A", "B", "C", "D", "E", "F", "G", "H", "I\xC3\xA9", "J", "A", NULL, NULL, NULL, NULL, "K"};
	for (unsigned id = 1; id <= 16; id++) {
		if (want[id])
			CHECK_STR(fw_hii_strings_get(&s, (uint16_t)id), want[id]);
		else
			CHECK(fw_hii_strings_get(&s, (uint16_t)id) == NULL);
	}
	CHECK(fw_hii_strings_get(&s, 0) == NULL);
	CHECK(fw_hii_strings_get(&s, 17) == NULL);
	CHECK(fw_hii_strings_has(&s, 11) && !fw_hii_strings_has(&s, 12) && !fw_hii_strings_has(&s, 17));
	/* texts are cut at max_string bytes on a character boundary; SCSU bytes past the cut are not counted */
	CHECK(fw_hii_strings_parse(&a, &v, 1, &s, &err));
	CHECK_EQ(s.scsu_non_ascii, 0);
	CHECK_STR(fw_hii_strings_get(&s, 9), "I");
	CHECK_STR(fw_hii_strings_get(&s, 1), "A");
	CHECK(fw_hii_strings_parse(&a, &v, 2, &s, &err));
	CHECK_STR(fw_hii_strings_get(&s, 9), "I");
	CHECK(fw_hii_strings_parse(&a, &v, 3, &s, &err));
	CHECK_EQ(s.scsu_non_ascii, 1);
	CHECK_STR(fw_hii_strings_get(&s, 9), "I\xC3\xA9");
	fw_arena_free(&a);

	/* an EXT block whose length is shorter than its own header is rejected */
	size_t ext1 = 0;
	for (size_t i = hdr; i + 2 < b.n; i++)
		if (b.p[i] == 0x30 && b.p[i + 1] == 0x77)
			ext1 = i;
	CHECK(ext1);
	b.p[ext1 + 2] = 2;
	CHECK(!fw_hii_strings_check(&v, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	b.p[ext1 + 2] = 5;
	/* a non-zero byte after END, an unknown block, a missing END */
	b.p[b.n - 1] = 0x55;
	CHECK(!fw_hii_strings_check(&v, &err));
	b.p[b.n - 1] = 0;
	CHECK(fw_hii_strings_check(&v, NULL));
	b.p[hdr] = 0x99;
	CHECK(!fw_hii_strings_check(&v, &err));
	free(b.p);
}

TEST(hii_strings_header_checks)
{
	const char *s[] = {"x"};
	struct tb b = {0};
	tb_strings(&b, "x-UEFI-AMI", s, 1);
	struct fw_view v = fw_view_make(b.p, b.n, 0);
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_hii_strings out;
	CHECK(fw_hii_strings_parse(&a, &v, 100, &out, NULL));
	CHECK(out.config_language);
	CHECK(fw_hii_language_matches("fr-FR", "fr"));
	CHECK(fw_hii_language_matches("EN-us", "en-US"));
	CHECK(!fw_hii_language_matches("fr-FR", "f"));
	/* the language tag must end exactly at HdrSize - 1 */
	b.p[4] += 1;
	CHECK(!fw_hii_strings_check(&v, NULL));
	b.p[4] -= 1;
	/* StringInfoOffset before the end of the header */
	b.p[8] = 10;
	CHECK(!fw_hii_strings_check(&v, NULL));
	fw_arena_free(&a);
	free(b.p);
}

/* ---- a synthetic formset ---- */

static const uint8_t var_guid[16] = {0x02, 0x75, 0x99, 0x3A, 0x7A, 0x64, 0x82, 0x4C, 0x99, 0x8E, 0x52, 0xEF, 0x94, 0x86, 0xA2, 0x47};

static void form_package(struct tb *b)
{
	size_t at = tb_pkg_begin(b);
	tb_u8(b, 0x0E), tb_u8(b, 0x80 | 23); /* FORM_SET */
	for (int i = 0; i < 16; i++)
		tb_u8(b, (uint8_t)(0xA0 + i));
	tb_u16(b, 1), tb_u16(b, 2), tb_u8(b, 0);
	/* EDK2 CLASS GUID op */
	tb_u8(b, 0x5F), tb_u8(b, 21);
	const uint8_t tiano[16] = {0x35, 0x17, 0x0B, 0x0F, 0xA0, 0x87, 0x93, 0x41, 0xB2, 0x66, 0x53, 0x8C, 0x38, 0xAF, 0x48, 0xCE};
	tb_put(b, tiano, 16), tb_u8(b, 3), tb_u16(b, 0x1);
	tb_op(b, 0x5C, 0, 4, 0, 0, 0, 0); /* DEFAULTSTORE name 0, id 0 */
	tb_u8(b, 0x24), tb_u8(b, 26);      /* VARSTORE "Cfg" */
	tb_put(b, var_guid, 16), tb_u16(b, 1), tb_u16(b, 0x20), tb_put(b, "Cfg", 4);
	tb_op(b, 0x01, 1, 4, 1, 0, 3, 0); /* FORM 1 "Main" */
	tb_op(b, 0x0F, 0, 13, QH(4, 0, 1, 0, 0, 0), 2, 0); /* REF to form 2 */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x01, 1, 4, 2, 0, 4, 0); /* FORM 2 "Advanced" */
	tb_op(b, 0x05, 1, 15, QH(5, 6, 0x10, 1, 4, 0x10), 0x00, 0, 3, 0); /* ONE_OF "Mode" u8 at 4 */
	tb_op(b, 0x09, 0, 5, 7, 0, 0x00, 0x00, 0);    /* "Off" = 0 */
	tb_op(b, 0x09, 0, 5, 8, 0, 0x10, 0x00, 1);    /* "On" = 1, default */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x0A, 1, 0);                          /* SUPPRESS_IF */
	tb_op(b, 0x12, 1, 4, 0x10, 0, 0, 0);           /*   EQ_ID_VAL Mode == 0, scope bit set as AMD does */
	tb_op(b, 0x17, 0, 0);                          /*     NOT */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x07, 1, 18, QH(9, 0, 0x11, 1, 6, 0), 0x01, 1, 0, 100, 0, 1, 0); /* NUMERIC "Level" u16 at 6 */
	tb_op(b, 0x5B, 1, 3, 0, 0, 0x01);              /*   DEFAULT id 0 with a VALUE expression */
	tb_op(b, 0x5A, 1, 0);                          /*     VALUE */
	tb_op(b, 0x43, 0, 2, 42, 0);                   /*       UINT16 42 */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);                          /* end NUMERIC */
	tb_op(b, 0x29, 0, 0);                          /* end SUPPRESS_IF */
	const uint8_t bitvs[16] = {0x8B, 0xD6, 0xDD, 0x82, 0x63, 0x91, 0x87, 0x41, 0x9B, 0x27, 0x20, 0xA8, 0xFD, 0x60, 0xA7, 0x1D};
	tb_u8(b, 0x5F), tb_u8(b, 0x80 | 18), tb_put(b, bitvs, 16); /* EDKII bit varstore scope */
	tb_op(b, 0x06, 1, 12, QH(10, 0, 0x12, 1, 65, 0), 0x01);   /* CHECKBOX "Flag" at bit 65, default on */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0); /* end FORM 2 */
	tb_op(b, 0x29, 0, 0); /* end FORM_SET */
	tb_pkg_end(b, at, 0x02);
}

static const char *const en[] = {"Test Set", "help", "Main", "Advanced", "Mode", "Mode help", "Off", "On", "Level", "Flag"};
static const char *const fr[] = {"Essai", NULL, "Principal", NULL, "Mode FR", NULL, NULL, NULL, NULL, NULL};

/* Decode the form package a test built, into an arena it initialises. */
static bool decode_built(const struct tb *b, struct fw_arena *a, struct fw_ifr_formset *fs, struct fw_error *err)
{
	struct fw_view v = fw_view_make(b->p, b->n, 0);
	fw_arena_init(a);
	return fw_ifr_decode(a, &v, fs, err);
}

TEST(ifr_decode_synthetic_formset)
{
	struct tb b = {0};
	form_package(&b);
	struct fw_arena a;
	struct fw_ifr_formset fs;
	struct fw_error err;
	CHECK_MSG(decode_built(&b, &a, &fs, &err), "%s", err.msg);
	CHECK_EQ(fs.ndiags, 0);
	CHECK_EQ(fs.title, 1);
	CHECK_EQ(fs.class_id, 1);
	CHECK_EQ(fs.nforms, 2);
	CHECK_EQ(fs.nvarstores, 1);
	CHECK_STR(fs.varstores[0].name, "Cfg");
	CHECK_EQ(fs.varstores[0].size, 0x20);
	CHECK_EQ(fs.nstring_ids, 10);
	const struct fw_ifr_question *mode = fw_ifr_find_question(&fs, 0x10);
	const struct fw_ifr_question *level = fw_ifr_find_question(&fs, 0x11);
	const struct fw_ifr_question *flag = fw_ifr_find_question(&fs, 0x12);
	CHECK(mode && level && flag);
	CHECK_EQ(mode->kind, FW_IFR_K_ONE_OF);
	CHECK_EQ(mode->width, 1);
	CHECK_EQ(mode->noptions, 2);
	CHECK_EQ(fw_ifr_question_default(mode, 0)->value.u, 1);
	CHECK(mode->cond == NULL);
	CHECK_EQ(level->width, 2);
	CHECK_EQ(level->min, 1);
	CHECK_EQ(level->max, 100);
	const struct fw_ifr_default *ld = fw_ifr_question_default(level, 0);
	CHECK(ld && ld->has_value && !ld->from_flags);
	CHECK_EQ(ld->value.u, 42);
	CHECK(level->cond && level->cond->kind == FW_IFR_COND_SUPPRESS && level->cond->expr);
	CHECK(flag->bit_field);
	CHECK_EQ(flag->bit_offset, 65);
	CHECK_EQ(flag->bit_width, 1);
	CHECK_EQ(flag->width, 1);
	CHECK_EQ(fw_ifr_question_default(flag, 0)->value.u, 1);
	/* the condition reads over the question's prompt and option text */
	struct fw_ifr_expr_env env = {0};
	CHECK_STR(fw_ifr_expr_render(&a, level->cond->expr, &env), "Q0x10 != 0");
	fw_arena_free(&a);

	/* broken walks are refused: a length past the end, an unbalanced scope */
	b.p[b.n - 1] = 0x82; /* last END gains a scope bit */
	struct fw_view v = fw_view_make(b.p, b.n, 0);
	CHECK(!fw_ifr_check_package(&v, &err));
	b.p[b.n - 1] = 0x02;
	b.p[5] = 0x80 | 1; /* FORM_SET length 1 */
	CHECK(!fw_ifr_check_package(&v, &err));
	free(b.p);
}

static struct fw_variable var_cfg;
static struct fw_variable *var_cfg_items[] = {&var_cfg};

/* The variable "Cfg" of the synthetic formsets holding `data`, as efivarfs would give it. */
static struct fw_varlist cfg_vars(uint8_t *data, size_t n)
{
	var_cfg.name = "Cfg";
	memcpy(var_cfg.guid.b, var_guid, 16);
	var_cfg.data = data;
	var_cfg.size = n;
	var_cfg.state = FW_VAR_STATE_VALID;
	var_cfg.store = "efivarfs";
	return (struct fw_varlist){var_cfg_items, 1, 1};
}

TEST(settings_pairing_paths_conditions_values)
{
	struct tb b = {0};
	/* a decoy string group that covers few ids, 8 bytes of gap, then the real group (en-US + fr-FR) */
	const char *decoy[] = {"x", "y"};
	tb_strings(&b, "en-US", decoy, 2);
	tb_u32(&b, 0), tb_u32(&b, 0);
	form_package(&b);
	size_t arr = b.n;
	tb_u32(&b, 0); /* StrGather array length */
	tb_strings(&b, "en-US", en, 10);
	tb_strings(&b, "fr-FR", fr, 10);
	tb_set_u32(&b, arr, (uint32_t)(b.n - arr));

	struct fw_hii_input in;
	struct fw_error err;
	struct fw_hii_options o = {.lang = "fr-FR"};
	CHECK_MSG(fw_hii_open_buffer(b.p, b.n, &o, &in, &err), "%s", err.msg);
	CHECK_EQ(in.db.nmodules, 1);
	const struct fw_hii_module *m = in.db.modules[0];
	CHECK_EQ(m->nforms, 1);
	CHECK_EQ(m->ngroups, 2);
	const struct fw_hii_form_pkg *fp = &m->forms[0];
	CHECK_EQ(fp->pairing, FW_HII_PAIR_COVERAGE);
	CHECK_EQ(fp->group, 1);
	CHECK_STR(m->groups[1].kind, "array");
	CHECK_EQ(fp->ids_used, 10);
	CHECK_EQ(fp->ids_covered, 10);
	CHECK_EQ(fp->candidates, 2);
	CHECK_EQ(fp->full_cover, 1);
	/* French where there is French, English per id elsewhere */
	CHECK_STR(fw_hii_string(fp, 1), "Essai");
	CHECK_STR(fw_hii_string(fp, 4), "Advanced");

	struct fw_settings s;
	CHECK(fw_settings_build(&in.db, NULL, &s));
	CHECK_EQ(s.n, 3);
	CHECK_STR(s.items[0].prompt, "Mode FR");
	CHECK_STR(s.items[0].paths[0], "Essai > Principal > Advanced");
	CHECK_STR(s.items[1].prompt, "Level");
	CHECK_EQ(s.items[1].nconds, 1);
	CHECK_STR(fw_setting_cond_text(&s.items[1].conds[0]), "Mode FR != Off");
	CHECK_EQ(s.items[1].hidden, -1);
	CHECK_STR(s.items[2].varstore_name, "Cfg");
	CHECK(fw_settings_find(&s, "level", NULL) == &s.items[1]);

	/* bind: Mode = Off (so Level is hidden), Level = 500 (out of range), Flag bit 65 set */
	static uint8_t data[0x20];
	data[4] = 0;
	data[6] = 0xF4, data[7] = 0x01;
	data[8] = 0x02;
	struct fw_varlist vars = cfg_vars(data, sizeof(data));
	fw_settings_bind(&s, &vars);
	CHECK_EQ(s.bound_vars, 3);
	CHECK(s.items[0].has_current);
	CHECK_EQ(s.items[0].current, 0);
	CHECK_STR(s.items[0].current_text, "Off");
	CHECK(s.items[0].current_valid);
	CHECK_EQ(s.items[1].current, 500);
	CHECK(!s.items[1].current_valid);
	CHECK_EQ(s.items[1].hidden, 0); /* Mode != Off is false: shown */
	data[4] = 1;
	fw_settings_bind(&s, &vars);
	CHECK_EQ(s.items[1].hidden, 1);
	CHECK_EQ(s.items[2].current, 1);
	data[8] = 0x01;
	fw_settings_bind(&s, &vars);
	CHECK_EQ(s.items[2].current, 0);
	fw_settings_free(&s);
	fw_hii_close(&in);
	free(b.p);
}

/* "Speed" (Cfg+8, one byte) shown in two forms, each under the Mode value the other is hidden by,
 * with another option in each; beside it a two-byte "Speed" and an "Other" at the same offset. */
static void repeated_form_package(struct tb *b)
{
	size_t at = tb_pkg_begin(b);
	tb_u8(b, 0x0E), tb_u8(b, 0x80 | 23); /* FORM_SET */
	for (int i = 0; i < 16; i++)
		tb_u8(b, (uint8_t)(0xB0 + i));
	tb_u16(b, 1), tb_u16(b, 2), tb_u8(b, 0);
	tb_op(b, 0x5C, 0, 4, 0, 0, 0, 0); /* DEFAULTSTORE name 0, id 0 */
	tb_u8(b, 0x24), tb_u8(b, 26);      /* VARSTORE "Cfg" */
	tb_put(b, var_guid, 16), tb_u16(b, 1), tb_u16(b, 0x20), tb_put(b, "Cfg", 4);
	tb_op(b, 0x01, 1, 4, 1, 0, 3, 0);                          /* FORM 1 "Main" */
	tb_op(b, 0x0F, 0, 13, QH(4, 0, 1, 0, 0, 0), 2, 0);         /* REF to form 2 "Advanced" */
	tb_op(b, 0x0F, 0, 13, QH(13, 0, 2, 0, 0, 0), 3, 0);        /* REF to form 3 "Boot" */
	tb_op(b, 0x05, 1, 15, QH(5, 6, 0x10, 1, 4, 0), 0x00, 0, 1, 0); /* ONE_OF "Mode" u8 at 4 */
	tb_op(b, 0x09, 0, 5, 7, 0, 0x10, 0x00, 0);                 /* "Off" = 0, default */
	tb_op(b, 0x09, 0, 5, 8, 0, 0x00, 0x00, 1);                 /* "On" = 1 */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);                                      /* end FORM 1 */
	tb_op(b, 0x01, 1, 4, 2, 0, 4, 0);                          /* FORM 2 "Advanced" */
	tb_op(b, 0x0A, 1, 0);                                      /* SUPPRESS_IF Mode == Off */
	tb_op(b, 0x12, 0, 4, 0x10, 0, 0, 0);
	tb_op(b, 0x05, 1, 15, QH(9, 0, 0x20, 1, 8, 0), 0x00, 0, 2, 0); /* ONE_OF "Speed" u8 at 8 */
	tb_op(b, 0x09, 0, 5, 10, 0, 0x10, 0x00, 0);                /* "Slow" = 0, default */
	tb_op(b, 0x09, 0, 5, 11, 0, 0x00, 0x00, 1);                /* "Fast" = 1 */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);                                      /* end SUPPRESS_IF */
	tb_op(b, 0x29, 0, 0);                                      /* end FORM 2 */
	tb_op(b, 0x01, 1, 4, 3, 0, 13, 0);                         /* FORM 3 "Boot" */
	tb_op(b, 0x0A, 1, 0);                                      /* SUPPRESS_IF Mode == On */
	tb_op(b, 0x12, 0, 4, 0x10, 0, 1, 0);
	tb_op(b, 0x05, 1, 15, QH(9, 0, 0x21, 1, 8, 0), 0x00, 0, 2, 0); /* the same "Speed" */
	tb_op(b, 0x09, 0, 5, 10, 0, 0x10, 0x00, 0);                /* "Slow" = 0 */
	tb_op(b, 0x09, 0, 5, 12, 0, 0x00, 0x00, 2);                /* "Turbo" = 2 */
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0);                                      /* end SUPPRESS_IF */
	tb_op(b, 0x05, 1, 18, QH(9, 0, 0x22, 1, 8, 0), 0x01, 0, 0, 2, 0, 1, 0); /* "Speed" u16 at 8 */
	tb_op(b, 0x09, 0, 6, 10, 0, 0x10, 0x01, 0, 0);
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x05, 1, 15, QH(14, 0, 0x23, 1, 8, 0), 0x00, 0, 2, 0); /* "Other" u8 at 8 */
	tb_op(b, 0x09, 0, 5, 10, 0, 0x10, 0x00, 0);
	tb_op(b, 0x29, 0, 0);
	tb_op(b, 0x29, 0, 0); /* end FORM 3 */
	tb_op(b, 0x29, 0, 0); /* end FORM_SET */
	tb_pkg_end(b, at, 0x02);
}

TEST(settings_one_question_in_two_forms_is_one_setting)
{
	static const char *const strs[] = {"Test Set", "help", "Main", "Advanced", "Mode", "Mode help", "Off",
					   "On", "Speed", "Slow", "Fast", "Turbo", "Boot", "Other"};
	struct tb b = {0};
	repeated_form_package(&b);
	tb_strings(&b, "en-US", strs, 14);
	struct fw_hii_input in;
	struct fw_error err;
	struct fw_hii_options o = {.lang = "en-US"};
	CHECK_MSG(fw_hii_open_buffer(b.p, b.n, &o, &in, &err), "%s", err.msg);
	struct fw_settings s;
	CHECK(fw_settings_build(&in.db, NULL, &s));
	/* Mode, Speed (both forms), Speed of two bytes, Other */
	CHECK_EQ(s.n, 4);
	const struct fw_setting *speed = &s.items[1];
	CHECK_STR(speed->prompt, "Speed");
	CHECK_EQ(speed->q->width, 1);
	CHECK_EQ(speed->copies, 2);
	CHECK_EQ(speed->npaths, 2);
	CHECK_STR(speed->paths[0], "Test Set > Main > Advanced");
	CHECK_STR(speed->paths[1], "Test Set > Main > Boot");
	CHECK_EQ(speed->noptions, 3);
	CHECK_STR(speed->options[2].text, "Turbo");
	/* hidden only where both copies are hidden */
	CHECK_EQ(speed->nconds, 1);
	CHECK_STR(fw_ifr_cond_kind_name(speed->conds[0].cond->kind), "suppress-if");
	CHECK_STR(fw_setting_cond_text(&speed->conds[0]), "Mode == Off and Mode == On");
	CHECK_STR(s.items[2].prompt, "Speed");
	CHECK_EQ(s.items[2].q->width, 2);
	CHECK_EQ(s.items[2].copies, 1);
	CHECK_STR(s.items[3].prompt, "Other");
	/* the second copy's question id finds the one setting */
	CHECK(fw_settings_question(&s, &in.db.modules[0]->forms[0], 0x21) == speed);

	static uint8_t data[0x20];
	data[4] = 0; /* Mode Off: the Advanced copy is hidden, the Boot copy is shown */
	data[8] = 2;
	struct fw_varlist vars = cfg_vars(data, sizeof(data));
	fw_settings_bind(&s, &vars);
	CHECK_EQ(speed->hidden, 0);
	CHECK_STR(speed->current_text, "Turbo");
	CHECK(speed->current_valid);
	fw_settings_free(&s);
	fw_hii_close(&in);
	free(b.p);
}

/* A condition opcode without its scope bit governs nothing and opens no scope: many of them in a
 * row (a fuzzed package) must neither be counted as open scopes nor overflow the scope stack. */
TEST(ifr_unscoped_conditions_open_nothing)
{
	struct tb b = {0};
	size_t at = tb_pkg_begin(&b);
	tb_u8(&b, 0x0E), tb_u8(&b, 0x80 | 23); /* FORM_SET */
	for (int i = 0; i < 16; i++)
		tb_u8(&b, (uint8_t)i);
	tb_u16(&b, 1), tb_u16(&b, 2), tb_u8(&b, 0);
	tb_op(&b, 0x01, 1, 4, 1, 0, 3, 0); /* FORM 1 */
	for (int i = 0; i < 300; i++)
		tb_op(&b, 0x0A, 0, 0); /* SUPPRESS_IF, no scope bit */
	tb_op(&b, 0x02, 0, 7, 4, 0, 0, 0, 0); /* SUBTITLE */
	tb_op(&b, 0x29, 0, 0);                 /* end FORM */
	tb_op(&b, 0x29, 0, 0);                 /* end FORM_SET */
	tb_pkg_end(&b, at, 0x02);
	struct fw_arena a;
	struct fw_ifr_formset fs;
	struct fw_error err;
	CHECK_MSG(decode_built(&b, &a, &fs, &err), "%s", err.msg);
	CHECK_EQ(fs.nforms, 1);
	CHECK(fs.ndiags >= 1);
	CHECK(strstr(fs.diags->msg, "SuppressIf without a scope governs nothing") != NULL);
	fw_arena_free(&a);
	free(b.p);
}

TEST(hii_package_list_pairing)
{
	struct tb b = {0};
	/* a decoy group first, then a package list: GUID, length, forms, strings, END */
	tb_strings(&b, "en-US", en, 10);
	size_t list = b.n;
	for (int i = 0; i < 16; i++)
		tb_u8(&b, (uint8_t)i);
	tb_u32(&b, 0);
	form_package(&b);
	tb_strings(&b, "en-US", en, 10);
	tb_u32(&b, 0xDF000004);
	tb_set_u32(&b, list + 16, (uint32_t)(b.n - list));
	struct fw_hii_input in;
	CHECK(fw_hii_open_buffer(b.p, b.n, NULL, &in, NULL));
	CHECK_EQ(in.db.nmodules, 1);
	const struct fw_hii_module *m = in.db.modules[0];
	CHECK_EQ(m->nlists, 1);
	CHECK_EQ(m->forms[0].pairing, FW_HII_PAIR_PACKAGE_LIST);
	CHECK_STR(m->groups[m->forms[0].group].kind, "package-list");
	fw_hii_close(&in);
	free(b.p);
}

TEST(ifr_expressions_render_and_evaluate)
{
	struct fw_arena a;
	fw_arena_init(&a);
	/* (Q1 == 1 or Q2 in {3, 4}) and not (Q3 == Q4): postfix */
	static const uint8_t code[] = {0x12, 6, 1, 0, 1, 0, 0x14, 10, 2, 0, 2, 0, 3, 0, 4, 0, 0x16, 2,
				       0x13, 6, 3, 0, 4, 0, 0x17, 2, 0x15, 2};
	struct fw_ifr_op ops[6];
	size_t off = 0;
	for (int i = 0; i < 6; i++) {
		ops[i] = (struct fw_ifr_op){code + off, (uint32_t)off, code[off], code[off + 1], false, 0};
		off += code[off + 1];
	}
	struct fw_ifr_expr *e = fw_ifr_expr_build(&a, ops, 6);
	CHECK(e);
	CHECK_STR(fw_ifr_expr_render(&a, e, NULL), "(Q0x1 == 1 or Q0x2 in {3, 4}) and Q0x3 != Q0x4");
	uint64_t v;
	CHECK_EQ(fw_ifr_expr_eval(e, NULL, &v), FW_IFR_EVAL_UNKNOWN);
	/* an operator without enough operands does not build */
	CHECK(fw_ifr_expr_build(&a, ops + 4, 2) == NULL);
	/* constants: 2 + 3 * 4 > 13 */
	static const uint8_t k[] = {0x42, 3, 2, 0x42, 3, 3, 0x42, 3, 4, 0x3C, 2, 0x3A, 2, 0x42, 3, 13, 0x31, 2};
	struct fw_ifr_op kops[7];
	off = 0;
	for (int i = 0; i < 7; i++) {
		kops[i] = (struct fw_ifr_op){k + off, (uint32_t)off, k[off], k[off + 1], false, 0};
		off += k[off + 1];
	}
	e = fw_ifr_expr_build(&a, kops, 7);
	CHECK(e);
	CHECK_EQ(fw_ifr_expr_eval(e, NULL, &v), FW_IFR_EVAL_OK);
	CHECK_EQ(v, 1);
	/* a constant truth value reads as what it is; arithmetic keeps its precedence */
	CHECK_STR(fw_ifr_expr_render(&a, e, NULL), "true");
	CHECK_STR(fw_ifr_expr_render(&a, fw_ifr_expr_build(&a, kops, 5), NULL), "2 + 3 * 4");
	fw_arena_free(&a);
}

/* Build a postfix expression from opcode bytes (each opcode's length in its second byte). */
static struct fw_ifr_expr *expr_of(struct fw_arena *a, const uint8_t *code, size_t len)
{
	struct fw_ifr_op *ops = fw_arena_alloc(a, 64 * sizeof(*ops));
	uint32_t n = 0;
	for (size_t off = 0; off < len && n < 64; off += code[off + 1])
		ops[n++] = (struct fw_ifr_op){code + off, (uint32_t)off, code[off], code[off + 1], false, 0};
	return fw_ifr_expr_build(a, ops, n);
}

#define EQ(q, v) 0x12, 6, q, 0, v, 0
#define NOT 0x17, 2
#define AND 0x15, 2
#define OR 0x16, 2
#define RENDERS(want, ...)                                                                                     \
	do {                                                                                                   \
		static const uint8_t c_[] = {__VA_ARGS__};                                                     \
		CHECK_STR(fw_ifr_expr_render(&a, expr_of(&a, c_, sizeof(c_)), NULL), want);                    \
	} while (0)

/* Conditions read as a person writes them: constants folded, and several values of one question
 * compared in a chain become one set test. */
TEST(ifr_expressions_read_as_written)
{
	struct fw_arena a;
	fw_arena_init(&a);
	RENDERS("Q0x1 not in {1, 2, 15}", EQ(1, 1), NOT, EQ(1, 2), NOT, AND, EQ(1, 15), NOT, AND);
	RENDERS("Q0x1 in {1, 2}", EQ(1, 1), EQ(1, 2), OR);
	RENDERS("Q0x1 not in {1, 2} and Q0x2 != 3", EQ(1, 1), NOT, EQ(2, 3), NOT, AND, EQ(1, 2), NOT, AND);
	/* `!=` written as NOT_EQUAL of a question reference and a constant counts too */
	RENDERS("Q0x1 not in {1, 2}", 0x40, 4, 1, 0, 0x42, 3, 1, 0x30, 2, EQ(1, 2), NOT, AND);
	/* constants that do not decide a chain leave it; one that does decides it */
	RENDERS("Q0x1 == 1", EQ(1, 1), 0x46, 2, AND);
	RENDERS("Q0x1 == 1", 0x47, 2, EQ(1, 1), OR);
	RENDERS("false", 0x42, 3, 0, 0x42, 3, 1, 0x2F, 2, EQ(1, 1), AND);
	RENDERS("true", EQ(1, 1), 0x46, 2, OR);
	RENDERS("false", 0x46, 2, NOT);
	/* `==` chains under `and` are not set tests */
	RENDERS("Q0x1 == 1 and Q0x1 == 2", EQ(1, 1), EQ(1, 2), AND);
	fw_arena_free(&a);
}

/* TRUE (or, with `question`, Q0x1 == 0), then `k` times DUP AND: 2^(k+1) - 1 nodes once the
 * shared halves are expanded. */
static uint32_t dup_chain(uint8_t *code, struct fw_ifr_op *ops, unsigned k, bool question)
{
	uint32_t n = 0;
	size_t off = 0;
	if (question) {
		static const uint8_t eq[6] = {FW_IFR_EQ_ID_VAL, 6, 1, 0, 0, 0};
		memcpy(code, eq, sizeof(eq));
		ops[n++] = (struct fw_ifr_op){code, 0, FW_IFR_EQ_ID_VAL, 6, false, 0};
		off = 6;
	} else {
		code[off] = FW_IFR_TRUE, code[off + 1] = 2;
		ops[n++] = (struct fw_ifr_op){code + off, (uint32_t)off, FW_IFR_TRUE, 2, false, 0};
		off += 2;
	}
	for (unsigned i = 0; i < k; i++) {
		code[off] = FW_IFR_DUP, code[off + 1] = 2;
		ops[n++] = (struct fw_ifr_op){code + off, (uint32_t)off, FW_IFR_DUP, 2, false, 0};
		off += 2;
		code[off] = FW_IFR_AND, code[off + 1] = 2;
		ops[n++] = (struct fw_ifr_op){code + off, (uint32_t)off, FW_IFR_AND, 2, false, 0};
		off += 2;
	}
	return n;
}

/* DUP shares subexpressions: 25 opcodes can stand for 8191 nodes. An expression is refused
 * past FW_IFR_EXPR_MAX_EXPANDED expanded nodes, so no walk of it can blow up. */
TEST(ifr_expression_expansion_limit)
{
	struct fw_arena a;
	fw_arena_init(&a);
	uint8_t code[128];
	struct fw_ifr_op ops[64];
	const char *why;
	uint32_t n = dup_chain(code, ops, 11, false); /* 4095 nodes */
	struct fw_ifr_expr *e = fw_ifr_expr_build_why(&a, ops, n, &why);
	CHECK(e);
	CHECK_EQ(e->expanded, 4095);
	uint64_t v;
	CHECK_EQ(fw_ifr_expr_eval(e, NULL, &v), FW_IFR_EVAL_OK);
	CHECK_EQ(v, 1);
	/* constant: folded to one word */
	CHECK_STR(fw_ifr_expr_render(&a, e, NULL), "true");
	/* 2048 "Q0x1 == 0" joined by " and ": cut at the render limit */
	uint8_t qcode[128];
	struct fw_ifr_op qops[64];
	uint32_t qn = dup_chain(qcode, qops, 11, true);
	const char *text = fw_ifr_expr_render(&a, fw_ifr_expr_build(&a, qops, qn), NULL);
	CHECK_EQ(strlen(text), FW_IFR_EXPR_RENDER_MAX + 3);
	CHECK(strcmp(text + FW_IFR_EXPR_RENDER_MAX, "...") == 0);
	CHECK(strncmp(text, "Q0x1 == 0 and Q0x1 == 0 and ", 28) == 0);
	/* one NOT on top: exactly at the limit; a second: one past it */
	static const uint8_t not_op[2] = {FW_IFR_NOT, 2};
	ops[n] = (struct fw_ifr_op){not_op, 0, FW_IFR_NOT, 2, false, 0};
	ops[n + 1] = ops[n];
	e = fw_ifr_expr_build_why(&a, ops, n + 1, &why);
	CHECK(e && e->expanded == FW_IFR_EXPR_MAX_EXPANDED);
	CHECK(fw_ifr_expr_build_why(&a, ops, n + 2, &why) == NULL);
	CHECK_STR(why, "expands (through DUP) past 4096 nodes");
	n = dup_chain(code, ops, 12, false); /* 8191 nodes */
	CHECK(fw_ifr_expr_build_why(&a, ops, n, &why) == NULL);
	CHECK_STR(why, "expands (through DUP) past 4096 nodes");
	CHECK(fw_ifr_expr_build_why(&a, ops, 1, &why) != NULL);
	CHECK(fw_ifr_expr_build_why(&a, ops + 2, 1, &why) == NULL);
	CHECK_STR(why, "does not reduce to one value");
	fw_arena_free(&a);
}

/* ---- real modules (corpus) ---- */

static bool open_corpus(const char *rel, struct fw_hii_input *in, const char *lang)
{
	const char *p = fw_test_corpus(rel);
	if (!p)
		return false;
	struct fw_hii_options o = {.lang = lang};
	struct fw_error err;
	return fw_source_open_hii(p, &o, in, &err);
}

TEST(corpus_bc250_setup_and_cbs)
{
	struct fw_hii_input in;
	if (!open_corpus("firmware/asrock-bc250-p4.00G_Setup_pe32-section.sct", &in, NULL))
		SKIP("corpus firmware/asrock-bc250-p4.00G_Setup_pe32-section.sct not present");
	CHECK_EQ(in.db.nmodules, 1);
	const struct fw_hii_form_pkg *fp = &in.db.modules[0]->forms[0];
	CHECK_EQ(in.db.modules[0]->nforms, 1);
	CHECK_EQ(fp->offset, 0xFB58);
	CHECK_EQ(fp->fs.package.len, 0x3BCC);
	CHECK_EQ(fp->ids_used, 683); /* IFRExtractor-RS list: 684 with id 0 */
	CHECK_EQ(fp->ids_covered, 683);
	CHECK_STR(fw_hii_string(fp, fp->fs.title), "Setup");
	CHECK_EQ(fp->fs.ndiags, 0);
	fw_hii_close(&in);

	if (!open_corpus("firmware/asrock-bc250-p4.00G_CbsSetupDxe_pe32-section.sct", &in, NULL))
		SKIP("corpus CbsSetupDxe not present");
	fp = &in.db.modules[0]->forms[0];
	struct fw_settings s;
	fw_settings_build(&in.db, NULL, &s);
	const struct fw_ifr_varstore *vs = fw_ifr_find_varstore(&fp->fs, 0x5000);
	CHECK(vs);
	CHECK_STR(vs->name, "AmdSetup");
	CHECK_EQ(vs->size, 0x8B5);
	CHECK(s.n > 500);
	fw_settings_free(&s);
	fw_hii_close(&in);
}

TEST(corpus_seven_languages_and_fallback)
{
	struct fw_hii_input in;
	if (!open_corpus("firmware/asus-rog-strix-b550f-gaming_Setup_pe32-section.sct", &in, "ja-JP"))
		SKIP("corpus firmware/asus-rog-strix-b550f-gaming_Setup_pe32-section.sct not present");
	const struct fw_hii_form_pkg *fp = &in.db.modules[0]->forms[0];
	const char *langs[16];
	uint32_t n = fw_hii_languages(fp, langs, 16);
	/* the seven 5-character tags, two 6-character Chinese tags and AMI's configuration language
	 * (IFRExtractor-RS sees only the seven: it requires HdrSize 0x34) */
	CHECK_EQ(n, 10);
	const char *want[] = {"en-US", "fr-FR", "zh-cht", "zh-chs", "ja-JP", "de-DE", "es-ES", "ru-RU", "ko-KR", "x-UEFI-AMI"};
	for (uint32_t i = 0; i < 10; i++)
		CHECK_STR(langs[i], want[i]);
	CHECK_EQ(fp->pairing, FW_HII_PAIR_PACKAGE_LIST);
	CHECK_STR(fp->strings.language, "ja-JP");
	CHECK_EQ(fp->ids_covered, fp->ids_used);
	/* every id the forms use resolves, through the per-id fallback to en-US */
	for (uint32_t i = 0; i < fp->fs.nstring_ids; i++)
		CHECK(fw_hii_string(fp, fp->fs.string_ids[i]) != NULL);
	fw_hii_close(&in);
}

TEST(corpus_uefi_editor_rewritten_suppress_if)
{
	struct fw_hii_input in;
	if (!open_corpus("firmware/asus-rog-crosshair-viii-hero_Setup_pe32-section_uefieditor-modded.sct", &in, NULL))
		SKIP("corpus Crosshair VIII Hero modified Setup not present");
	const struct fw_hii_form_pkg *fp = &in.db.modules[0]->forms[0];
	CHECK_EQ(fp->fs.ndiags, 0);
	/* the SuppressIf at 0x5809F holds "Uint64 1 (scope) Uint64 1 Equal End" and closes at once */
	uint32_t at = 0x5809F - (uint32_t)fp->offset, idx = 0;
	while (idx < fp->fs.nops && fp->fs.ops[idx].offset != at)
		idx++;
	CHECK(idx < fp->fs.nops);
	CHECK_EQ(fp->fs.ops[idx].opcode, FW_IFR_SUPPRESS_IF);
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_ifr_expr *e = fw_ifr_expr_build(&a, &fp->fs.ops[idx + 1], 4);
	CHECK(e);
	CHECK_STR(fw_ifr_expr_render(&a, e, NULL), "true");
	fw_arena_free(&a);
	/* the question after it is no longer governed by any condition */
	const struct fw_ifr_question *q = NULL;
	for (uint32_t i = 0; i < fp->fs.nitems; i++)
		if (fp->fs.ops[fp->fs.items[i]->op_index].offset == 0x580C3 - fp->offset)
			q = fp->fs.items[i];
	CHECK(q);
	CHECK_STR(fw_hii_string(fp, q->prompt), "PCH Fan Q-Fan Control");
	CHECK(q->cond == NULL);
	fw_hii_close(&in);
}
