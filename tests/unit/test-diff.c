/* The diff engine on settings lists written here: matching by prompt and path, moves within a
 * varstore family, option multisets, defaults per store, layout-only changes, values, and the
 * settings-list reader it shares with find and query. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "tools/query/diff.h"

static bool list(const char *json, struct fw_setlist *l)
{
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_setlist_from_json(json, strlen(json), "test", l, &err)) {
		fprintf(stderr, "# %s\n", err.msg);
		return false;
	}
	return true;
}

#define OPTS_SMEE "\"options\": [{\"text\": \"Disable\", \"value\": 0}, {\"text\": \"Enable\", \"value\": 1}, {\"text\": \"Auto\", \"value\": 3}]"
#define OPTS_IOMMU "\"options\": [{\"text\": \"Disabled\", \"value\": 0}, {\"text\": \"Enabled\", \"value\": 1}, {\"text\": \"Auto\", \"value\": 15}]"
#define CBS "\"module\": \"E369E9DE-DC16-4F58-AC7B-088EA6DD5566\", \"module_name\": \"CbsSetupDxeSHP\""

static const char old_json[] =
	"{\"settings\": ["
	"{\"prompt\": \"SMEE\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 54, \"width\": 1, " OPTS_SMEE ", "
	" \"defaults\": [{\"store_id\": 0, \"value\": 3}], \"current\": 3, " CBS "},"
	"{\"prompt\": \"IOMMU\", \"path\": \"AMD CBS > NBIO Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 291, \"width\": 1, " OPTS_IOMMU ", " CBS "},"
	"{\"prompt\": \"Removed One\", \"path\": \"AMD CBS\", \"varstore\": \"AmdSetupSHP\", \"offset\": 300, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Split RMP Table\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 61, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Split RMP Table\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 61, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Hot Plug Handling mode\", \"path\": \"AMD CBS > NBIO Common Options > PCIE\", \"varstore\": \"AmdSetupSHP\", \"offset\": 796, \"width\": 1, "
	" \"options\": [{\"text\": \"OS First\", \"value\": 1}, {\"text\": \"Firmware First\", \"value\": 3}, {\"text\": \"System Firmware Intermediary\", \"value\": 5}, {\"text\": \"Auto\", \"value\": 15}], " CBS "},"
	"{\"prompt\": \"Temperature Source\", \"path\": \"Monitor\", \"varstore\": \"Fan\", \"offset\": 2, \"width\": 1, "
	" \"options\": [{\"text\": \"T_Sensor\", \"value\": 7}, {\"text\": \"T_Sensor 1\", \"value\": 7}]},"
	"{\"prompt\": \"SR-IOV Support\", \"path\": \"Advanced > PCI Subsystem Settings\", \"varstore\": \"Setup\", \"offset\": 260, \"width\": 1, "
	" \"options\": [{\"text\": \"Disabled\", \"value\": 0}, {\"text\": \"Enabled\", \"value\": 1}], "
	" \"defaults\": [{\"store_id\": 0, \"value\": 0}, {\"store_id\": 1, \"store\": \"manufacturing\", \"value\": 0}]},"
	"{\"prompt\": \"Mode\", \"kind\": \"one-of\", \"path\": \"Advanced > A\", \"varstore\": \"Setup\", \"offset\": 1, \"width\": 1, "
	" \"options\": [{\"text\": \"Fast\", \"value\": 0}, {\"text\": \"Slow\", \"value\": 1}]}"
	"]}";

static const char new_json[] =
	"{\"settings\": ["
	"{\"prompt\": \"SMEE\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 56, \"width\": 1, " OPTS_SMEE ", "
	" \"defaults\": [{\"store_id\": 0, \"value\": 3}], \"current\": 1, " CBS "},"
	"{\"prompt\": \"IOMMU\", \"path\": \"AMD CBS > NBIO Common Options > IOMMU/Security\", \"varstore\": \"AmdSetupSTP\", \"offset\": 887, \"width\": 1, " OPTS_IOMMU ", " CBS "},"
	"{\"prompt\": \"Added One\", \"path\": \"AMD CBS\", \"varstore\": \"AmdSetupSHP\", \"offset\": 301, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Split RMP Table\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 61, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Split RMP Table\", \"path\": \"AMD CBS > CPU Common Options\", \"varstore\": \"AmdSetupSHP\", \"offset\": 61, \"width\": 1, " CBS "},"
	"{\"prompt\": \"Hot Plug Handling mode\", \"path\": \"AMD CBS > NBIO Common Options > PCIE\", \"varstore\": \"AmdSetupSHP\", \"offset\": 796, \"width\": 1, "
	" \"options\": [{\"text\": \"OS First\", \"value\": 1}, {\"text\": \"Firmware First\", \"value\": 3}, {\"text\": \"Auto\", \"value\": 15}], " CBS "},"
	"{\"prompt\": \"Temperature Source\", \"path\": \"Monitor\", \"varstore\": \"Fan\", \"offset\": 2, \"width\": 1, "
	" \"options\": [{\"text\": \"T_Sensor\", \"value\": 7}, {\"text\": \"T_Sensor 1\", \"value\": 7}]},"
	"{\"prompt\": \"SR-IOV Support\", \"path\": \"Advanced > PCI Subsystem Settings\", \"varstore\": \"Setup\", \"offset\": 260, \"width\": 1, "
	" \"options\": [{\"text\": \"Disabled\", \"value\": 0}, {\"text\": \"Enabled\", \"value\": 1}], "
	" \"defaults\": [{\"store_id\": 0, \"value\": 1}, {\"store_id\": 1, \"store\": \"manufacturing\", \"value\": 0}]},"
	"{\"prompt\": \"Mode\", \"kind\": \"numeric\", \"path\": \"Advanced > B\", \"varstore\": \"Setup\", \"offset\": 9, \"width\": 2, \"min\": 0, \"max\": 9}"
	"]}";

static const struct fw_diff_setting *find_kind(const struct fw_diff *d, enum fw_diff_kind k, const char *prompt)
{
	for (size_t i = 0; i < d->nsettings; i++) {
		const struct fw_diff_setting *s = &d->settings[i];
		const struct fw_setlist_item *it = s->b ? s->b : s->a;
		if (s->kind == k && strcmp(it->prompt, prompt) == 0)
			return s;
	}
	return NULL;
}

static const struct fw_diff_field *field_of(const struct fw_diff_setting *s, const char *name)
{
	for (size_t i = 0; s && i < s->nfields; i++)
		if (strcmp(s->fields[i].field, name) == 0)
			return &s->fields[i];
	return NULL;
}

TEST(diff_settings_by_meaning)
{
	struct fw_setlist a, b;
	CHECK(list(old_json, &a));
	CHECK(list(new_json, &b));
	struct fw_diff d;
	memset(&d, 0, sizeof(d));
	fw_arena_init(&d.arena);
	fw_diff_settings(&a, &b, &d);
	CHECK_EQ(d.counts[FW_DIFF_ADDED], 2);
	CHECK_EQ(d.counts[FW_DIFF_REMOVED], 2);
	CHECK_EQ(d.counts[FW_DIFF_MOVED], 1);
	CHECK_EQ(d.counts[FW_DIFF_CHANGED], 3);
	CHECK_EQ(d.layout_only, 1);
	CHECK(find_kind(&d, FW_DIFF_ADDED, "Added One"));
	CHECK(find_kind(&d, FW_DIFF_REMOVED, "Removed One"));
	/* same prompt, other kind, other menu: two different settings, not a move */
	CHECK(find_kind(&d, FW_DIFF_ADDED, "Mode") && find_kind(&d, FW_DIFF_REMOVED, "Mode"));
	/* the menu moved and the varstore is the same family (AmdSetupSHP, AmdSetupSTP) */
	const struct fw_diff_setting *mv = find_kind(&d, FW_DIFF_MOVED, "IOMMU");
	CHECK(mv);
	CHECK_STR(mv->a->path, "AMD CBS > NBIO Common Options");
	CHECK_STR(mv->b->path, "AMD CBS > NBIO Common Options > IOMMU/Security");
	CHECK_STR(field_of(mv, "varstore")->new_value, "AmdSetupSTP");
	CHECK_STR(field_of(mv, "offset")->old_value, "0x123");
	const struct fw_diff_setting *smee = find_kind(&d, FW_DIFF_CHANGED, "SMEE");
	CHECK(smee && smee->layout_only && smee->nfields == 1);
	CHECK_STR(smee->fields[0].old_value, "0x36");
	CHECK_STR(smee->fields[0].new_value, "0x38");
	const struct fw_diff_field *opt = field_of(find_kind(&d, FW_DIFF_CHANGED, "Hot Plug Handling mode"), "options");
	CHECK(opt);
	CHECK_STR(opt->detail, "removed 5 System Firmware Intermediary");
	const struct fw_diff_setting *sriov = find_kind(&d, FW_DIFF_CHANGED, "SR-IOV Support");
	CHECK(sriov && !sriov->layout_only && sriov->nfields == 1);
	CHECK_STR(sriov->fields[0].field, "default");
	CHECK_STR(sriov->fields[0].old_value, "Disabled (0)");
	CHECK_STR(sriov->fields[0].new_value, "Enabled (1)");
	/* equal duplicates pair in order; equal option multisets with repeated values are equal */
	CHECK(!find_kind(&d, FW_DIFF_CHANGED, "Split RMP Table") && !find_kind(&d, FW_DIFF_ADDED, "Split RMP Table"));
	CHECK(!find_kind(&d, FW_DIFF_CHANGED, "Temperature Source"));
	CHECK_EQ(d.nvalues, 1);
	CHECK_STR(d.values[0].a->prompt, "SMEE");
	CHECK_STR(d.values[0].old_value, "Auto");
	CHECK_STR(d.values[0].new_value, "Enable");
	CHECK_EQ(d.matched, 7);
	fw_diff_free(&d);
	/* a list against itself: nothing */
	memset(&d, 0, sizeof(d));
	fw_arena_init(&d.arena);
	fw_diff_settings(&a, &a, &d);
	CHECK_EQ(fw_diff_count(&d), 0);
	fw_diff_free(&d);
	fw_setlist_free(&a);
	fw_setlist_free(&b);
}

TEST(diff_varstore_family)
{
	char buf[64];
	CHECK_STR(fw_varstore_family("AmdSetupSHP", buf, sizeof(buf)), "AmdSetup");
	CHECK_STR(fw_varstore_family("AmdSetupZP", buf, sizeof(buf)), "AmdSetup");
	CHECK_STR(fw_varstore_family("Setup", buf, sizeof(buf)), "Setup");
	CHECK_STR(fw_varstore_family("AMD_PBS_SETUP", buf, sizeof(buf)), "AMD_PBS_SETUP");
	CHECK_STR(fw_varstore_family("AmdSetupABCDE", buf, sizeof(buf)), "AmdSetupABCDE");
	CHECK_STR(fw_varstore_family("SetupX", buf, sizeof(buf)), "SetupX");
	CHECK_STR(fw_varstore_family(NULL, buf, sizeof(buf)), "");
}

TEST(setlist_json_forms)
{
	struct fw_setlist l;
	struct fw_error err;
	const char *lines = "{\"prompt\": \"A\", \"offset\": 4, \"width\": 2}\n\n{\"prompt\": \"B\", \"current\": \"text\"}\n";
	CHECK(fw_setlist_from_json(lines, strlen(lines), "l.jsonl", &l, &err));
	CHECK_EQ(l.n, 2);
	CHECK(l.items[0].has_offset && l.items[0].offset == 4 && l.items[0].width == 2);
	CHECK(l.items[1].has_current);
	CHECK_STR(l.items[1].current_text, "text");
	CHECK(l.bound);
	fw_setlist_free(&l);
	const char *arr = "[{\"prompt\": \"A\"}]";
	CHECK(fw_setlist_from_json(arr, strlen(arr), "a.json", &l, &err));
	CHECK_EQ(l.n, 1);
	CHECK(!l.bound);
	fw_setlist_free(&l);
	const char *no_prompt = "{\"settings\": [{\"prompt\": \"A\"}, {\"help\": \"h\"}]}";
	CHECK(!fw_setlist_from_json(no_prompt, strlen(no_prompt), "x.json", &l, &err));
	CHECK_STR(err.msg, "x.json: record 2 has no \"prompt\" string");
	const char *bad_opts = "{\"settings\": [{\"prompt\": \"A\", \"options\": {}}]}";
	CHECK(!fw_setlist_from_json(bad_opts, strlen(bad_opts), "y.json", &l, &err));
	CHECK(strstr(err.msg, "\"options\" is not an array"));
	const char *garbage = "{\"settings\": [";
	CHECK(!fw_setlist_from_json(garbage, strlen(garbage), "z.json", &l, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	const char *other = "{\"tables\": []}";
	CHECK(!fw_setlist_from_json(other, strlen(other), "t.json", &l, &err));
	CHECK(strstr(err.msg, "not a settings list"));
}

TEST(setlist_texts)
{
	struct fw_setlist l;
	CHECK(list(old_json, &l));
	char buf[64];
	const struct fw_setlist_item *smee = &l.items[0];
	CHECK_STR(fw_setlist_default_text(smee, buf, sizeof(buf)), "Auto");
	CHECK_STR(fw_setlist_current_text(smee, buf, sizeof(buf)), "Auto");
	CHECK_STR(fw_setlist_value_text(smee, 9, buf, sizeof(buf)), "9");
	CHECK(fw_setlist_condition(&l, smee) == NULL);
	CHECK(fw_setlist_item_in_module(smee, "cbssetupdxeshp"));
	CHECK(fw_setlist_item_in_module(smee, "E369E9DE"));
	CHECK(!fw_setlist_item_in_module(smee, "E36"));
	CHECK(!fw_setlist_item_in_module(&l.items[6], "Setup"));
	CHECK(fw_setlist_keep_module(&l, "CbsSetupDxeSHP"));
	CHECK_EQ(l.n, 6);
	fw_setlist_free(&l);
}
