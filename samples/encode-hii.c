/* String packages, IFR opcodes and package lists (reference/ifr.md 1-2). */
#include "encode-hii.h"

#include <stdlib.h>
#include <string.h>

#include "ifr/ifr-layout.h"
#include "ifr/ifr-opcodes.h"

const char *const lang_tags[LANG__COUNT] = {"en-US", "fr-FR", "zh-chs", "x-UEFI-AMI"};

uint16_t str_id(struct strtab *t, const char *en)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->text[LANG_EN][i] && strcmp(t->text[LANG_EN][i], en) == 0)
			return (uint16_t)(i + 1);
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		for (int l = 0; l < LANG__COUNT; l++)
			t->text[l] = fw_xrealloc(t->text[l], t->cap * sizeof(char *));
	}
	for (int l = 0; l < LANG__COUNT; l++)
		t->text[l][t->count] = NULL;
	t->text[LANG_EN][t->count] = sample_strdup(en);
	t->count++;
	SAMPLE_ASSERT(t->count < 0xFFFF);
	return (uint16_t)t->count;
}

void str_set_lang(struct strtab *t, uint16_t id, int lang, const char *text)
{
	SAMPLE_ASSERT(id >= 1 && id <= t->count);
	t->text[lang][id - 1] = sample_strdup(text);
}

void str_free(struct strtab *t)
{
	for (int l = 0; l < LANG__COUNT; l++)
		free(t->text[l]);
	memset(t, 0, sizeof(*t));
}

/* Words real setup menus translate; everything else falls back to English (SKIP2 blocks). */
static const struct {
	const char *en, *fr, *zh;
} dictionary[] = {
	{"Enabled", "Activé", "启用"},
	{"Disabled", "Désactivé", "禁用"},
	{"Enable", "Activer", "启用"},
	{"Disable", "Désactiver", "禁用"},
	{"Auto", "Auto", "自动"},
	{"Advanced", "Avancé", "高级"},
	{"Main", "Principal", "概要"},
	{"Boot", "Amorçage", "启动"},
	{"Security", "Sécurité", "安全"},
	{"Exit", "Quitter", "退出"},
	{"Setup", "Configuration", "设置"},
	{"PCI Subsystem Settings", "Paramètres du sous-système PCI", "PCI 子系统设置"},
	{"CPU Configuration", "Configuration du processeur", "处理器设置"},
	{"Above 4G Decoding", "Décodage au-dessus de 4G", "4G 以上解码"},
	{"Resize BAR Support", "Prise en charge du Resize BAR", "Resize BAR 支持"},
	{"SR-IOV Support", "Prise en charge SR-IOV", "SR-IOV 支持"},
	{"SVM Mode", "Mode SVM", "SVM 模式"},
	{"Boot Configuration", "Configuration de l'amorçage", "启动设置"},
	{"Secure Boot", "Démarrage sécurisé", "安全启动"},
	{"Administrator Password", "Mot de passe administrateur", "管理员密码"},
	{"User Password", "Mot de passe utilisateur", "用户密码"},
	{"BIOS Information", "Informations sur le BIOS", "BIOS 信息"},
	{"System Language", "Langue du système", "系统语言"},
	{"Bootup NumLock State", "État de VerrNum au démarrage", "开机数字键锁状态"},
	{"On", "Activé", "开"},
	{"Off", "Désactivé", "关"},
};

void str_translate(struct strtab *t)
{
	for (size_t i = 0; i < t->count; i++) {
		const char *en = t->text[LANG_EN][i];
		for (size_t d = 0; d < ARRAY_LEN(dictionary); d++)
			if (en && strcmp(en, dictionary[d].en) == 0) {
				t->text[LANG_FR][i] = (char *)dictionary[d].fr;
				t->text[LANG_ZH][i] = (char *)dictionary[d].zh;
			}
	}
}

static void put_skip(struct sbuf *b, size_t n)
{
	while (n) {
		size_t k = n > 0xFFFF ? 0xFFFF : n;
		sb_put8(b, FW_SIBT_SKIP2);
		sb_put16(b, (uint16_t)k);
		n -= k;
	}
}

static void string_package(struct strtab *t, int lang, struct sbuf *out)
{
	const char *tag = lang_tags[lang];
	size_t hdr_size = FW_HII_STRING_HEADER_FIXED + strlen(tag) + 1;
	size_t start = out->len;
	size_t h = sb_put(out, NULL, fw_hii_string_package_layout.size);
	sb_put_ascii(out, tag);
	SAMPLE_ASSERT(out->len - start == hdr_size);
	size_t skipped = 0;
	for (size_t i = 0; i < t->count; i++) {
		const char *s = t->text[lang][i];
		if (!s) {
			skipped++;
			continue;
		}
		put_skip(out, skipped);
		skipped = 0;
		sb_put8(out, FW_SIBT_STRING_UCS2);
		sb_put_ucs2(out, s);
	}
	/* trailing ids without text need no skip: the END block closes the list */
	sb_put8(out, FW_SIBT_END);
	uint8_t *p = sb_at(out, h);
	fw_layout_put(&fw_hii_string_package_layout, p, HII_STR_LENGTH, out->len - start);
	fw_layout_put(&fw_hii_string_package_layout, p, HII_STR_TYPE, FW_HII_PACKAGE_STRINGS);
	fw_layout_put(&fw_hii_string_package_layout, p, HII_STR_HDR_SIZE, hdr_size);
	fw_layout_put(&fw_hii_string_package_layout, p, HII_STR_INFO_OFFSET, hdr_size);
	fw_layout_put(&fw_hii_string_package_layout, p, HII_STR_LANGUAGE_NAME, 1);
}

void str_packages(struct strtab *t, const int *langs, size_t nlangs, struct sbuf *out)
{
	for (size_t i = 0; i < nlangs; i++)
		string_package(t, langs[i], out);
}

size_t ifr_op(struct ifr *f, uint8_t opcode, size_t len, bool scope)
{
	SAMPLE_ASSERT(len >= FW_IFR_HEADER_SIZE && len <= FW_IFR_LENGTH_MASK);
	size_t off = sb_put(&f->b, NULL, len);
	uint8_t *p = sb_at(&f->b, off);
	fw_layout_put(&fw_ifr_header_layout, p, IFR_HDR_OPCODE, opcode);
	fw_layout_put(&fw_ifr_header_layout, p, IFR_HDR_LENGTH_SCOPE, len | (scope ? FW_IFR_SCOPE_BIT : 0));
	if (scope)
		f->depth++;
	return off;
}

void ifr_end(struct ifr *f)
{
	SAMPLE_ASSERT(f->depth > 0);
	ifr_op(f, FW_IFR_END, FW_IFR_HEADER_SIZE, false);
	f->depth--;
}

void hii_form_package(struct sbuf *out, const struct sbuf *ifr)
{
	size_t h = sb_put(out, NULL, FW_HII_PACKAGE_HEADER_SIZE);
	sb_put(out, ifr->p, ifr->len);
	fw_layout_put(&fw_hii_package_layout, sb_at(out, h), HII_PKG_LENGTH, FW_HII_PACKAGE_HEADER_SIZE + ifr->len);
	fw_layout_put(&fw_hii_package_layout, sb_at(out, h), HII_PKG_TYPE, FW_HII_PACKAGE_FORMS);
}

uint8_t *hii_package_list(const struct fw_guid *guid, const struct sbuf *packages, size_t *len)
{
	struct sbuf b = {0};
	size_t h = sb_put(&b, NULL, FW_HII_PACKAGE_LIST_HEADER_SIZE);
	sb_put(&b, packages->p, packages->len);
	size_t end = sb_put(&b, NULL, FW_HII_PACKAGE_HEADER_SIZE);
	fw_layout_put(&fw_hii_package_layout, sb_at(&b, end), HII_PKG_LENGTH, FW_HII_PACKAGE_HEADER_SIZE);
	fw_layout_put(&fw_hii_package_layout, sb_at(&b, end), HII_PKG_TYPE, FW_HII_PACKAGE_END);
	fw_layout_put_guid(&fw_hii_package_list_layout, sb_at(&b, h), HII_LIST_GUID, guid);
	fw_layout_put(&fw_hii_package_list_layout, sb_at(&b, h), HII_LIST_LENGTH, b.len);
	return sb_take(&b, len);
}
