/* The AMD CBS formset of the sample BIOS (module CbsSetupDxeBRH, varstore AmdSetupBRH).
 *
 * Menus, prompts, option values, defaults and suppress/grey-out rules follow the Turin (BRH) CBS
 * described in reference/domain.md section 1 and the real Zen 5 CBS forms of the corpus
 * (corpus/ifr/asus-wrx90e-sage-se_1203_CbsSetupDxeSHP_zen5.ifr.txt): form ids 0x70xx, question
 * flags 0x10 (reset required) and 0x14 with 0x70xx ids for callback questions, Auto encoded per
 * item (0x0F NBIO, 0xFF CPU/DF/UMC, 3 SMEE, 7 NPS), option-flag defaults, and the scoped first
 * operand of compound conditions. Varstore offsets follow the CBS_CONFIG shape (32-byte header,
 * CPU fields from 0x20, DF from 0x75, UMC and NBIO near 0x300, SMU near 0x420) without copying it.
 *
 * Differences between 1104 and 1201 are written with f_plant() where they are made. */
#include "forms.h"

#include <string.h>

#include "parsers/hash.h"

#define CBS_VARSTORE_GUID "3A997502-647A-4C82-998E-52EF9486A247"
#define CBS_VARSTORE_ID 0x5000

enum {
	F_ROOT = 0x7000,
	F_CPU = 0x7001,
	F_DF = 0x7002,
	F_UMC = 0x7003,
	F_NBIO = 0x7004,
	F_FCH = 0x7005,
	F_THREAD = 0x700B,
	F_PREFETCH = 0x700D,
	F_RMP_MMIO = 0x7011,
	F_MEMADDR = 0x7016,
	F_DF_ACPI = 0x7017,
	F_LINK = 0x7018,
	F_DDR_SECURITY = 0x70AC,
	F_NBIO_RAS = 0x70D4,
	F_PCIE = 0x70D5,
	F_NBIF = 0x70D6,
	F_IOMMU = 0x70D7,
	F_SMU = 0x70DB,
	F_XGMI_WIDTH = 0x70DC,
};

static struct varstore *cbs_varstore(int version)
{
	struct varstore *vs = vs_new("AmdSetupBRH", CBS_VARSTORE_GUID, CBS_VARSTORE_ID, 0x7);
	vs->filler_seed = 1;
	/* CBS_VARIABLE_HEADER (reference/domain.md 1e) */
	vs_fixed(vs, "CbsVariableUnique", 4, 0);
	vs_field(vs, "NewRecordOffset", 4);
	char *hash_label = sample_printf("BRH CBS %d", version);
	vs_fixed(vs, "ApcbVariableHash", 4, fw_crc32((const uint8_t *)hash_label, strlen(hash_label)));
	vs_fixed(vs, "ComboChipsetFlag", 2, 0);
	vs_fixed(vs, "CbsVisibleFlag0", 1, 1);
	vs_fixed(vs, "CbsVisibleFlag1", 1, 1);
	vs_fixed(vs, "CbsRevisionNumber", 4, version >= 1201 ? 0x0F62 : 0x0F47);
	vs_fixed(vs, "MemTech", 1, 1);
	vs_reserved(vs, 11);
	/* CPU Common Options */
	vs_field(vs, "CbsComboFlag", 1);
	vs_field(vs, "CbsCmnCpuGenWA05", 1);
	vs_field(vs, "CbsCmnCpuPfeh", 1);
	vs_field(vs, "CbsCmnCpuCpb", 1);
	vs_field(vs, "CbsCmnCpuGlobalCstateCtrl", 1);
	vs_field(vs, "CbsCmnGnbPowerSupplyIdleCtrl", 1);
	vs_field(vs, "CbsCmnCpuStreamingStoresCtrl", 1);
	vs_field(vs, "CbsDbgCpuLApicMode", 1);
	vs_field(vs, "CbsCmnCpuCstC1Ctrl", 1);
	vs_reserved(vs, 2);
	vs_field(vs, "CbsCmnCpuMcaErrThreshEn", 1);
	vs_field(vs, "CbsCmnCpuMcaErrThreshCount", 2);
	vs_field(vs, "CbsCmnCpuPpinCtrl", 1);
	vs_field(vs, "CbsDbgCpuSnpMemSizeCover", 4);
	vs_field(vs, "CbsCmnCpuSmee", 1);
	vs_field(vs, "CbsPspSevCtrl", 1);
	vs_field(vs, "CbsCmnCpuSevAsidSpaceLimit", 4);
	vs_field(vs, "CbsDbgCpuSnpMemCover", 1);
	vs_field(vs, "CbsDbgCpuSplitRmp", 1);
	vs_field(vs, "CbsDbgCpuSegmentedRmp", 1);
	vs_field(vs, "CbsDbgCpuRmpSegSize", 1);
	vs_field(vs, "CbsCmnCpu64BitMMIOCoverage", 1);
	/* the root-bridge masks of the 64-bit MMIO RMP coverage, one bit per root bridge */
	for (int s = 0; s < 2; s++)
		for (int rb = 0; rb < 4; rb++)
			vs_bits(vs, sample_printf("CbsCmnCpu64BitMMIORmpS%dRb%d", s, rb), 1);
	vs_field(vs, "CbsCmnCpuSmtCtrl", 1);
	vs_field(vs, "CbsCmnCpuCcdCtrl", 1);
	vs_field(vs, "CbsCmnCpuCoreCtrl", 1);
	vs_field(vs, "CbsCmnCpuL1StreamHwPrefetcher", 1);
	vs_field(vs, "CbsCmnCpuL1StridePrefetcher", 1);
	vs_field(vs, "CbsCmnCpuL1RegionPrefetcher", 1);
	vs_field(vs, "CbsCmnCpuL2StreamHwPrefetcher", 1);
	vs_field(vs, "CbsCmnCpuL2UpDownPrefetcher", 1);
	vs_field(vs, "CbsCmnCpuL1BurstPrefetch", 1);
	vs_pad_to(vs, 0x75);
	/* DF Common Options */
	vs_field(vs, "CbsDfCmnDramNps", 1);
	vs_field(vs, "CbsDfCmnMemIntlv", 1);
	vs_field(vs, "CbsDfCmnMemIntlvSize", 1);
	vs_field(vs, "CbsDfCmn1TbRemap", 1);
	vs_reserved(vs, 4);
	vs_field(vs, "CbsDfCmnAcpiSratL3Numa", 1);
	vs_field(vs, "CbsDfCmnAcpiSlitDistCtrl", 1);
	vs_field(vs, "CbsDfCmnAcpiSlitRemoteFar", 1);
	vs_reserved(vs, 5);
	vs_field(vs, "CbsDfXgmiLinkConfig", 1);
	vs_field(vs, "CbsDfXgmi4LinkMaxSpeed", 1);
	vs_field(vs, "CbsDfXgmi3LinkMaxSpeed", 1);
	vs_pad_to(vs, 0x2F9);
	/* UMC Common Options > DDR Security */
	vs_field(vs, "CbsCmnMemTsme", 1);
	vs_field(vs, "CbsCmnMemAes", 1);
	vs_field(vs, "CbsCmnMemDataScramble", 1);
	vs_field(vs, "CbsCmnMemSmeMk", 1);
	vs_pad_to(vs, 0x30C);
	/* NBIO Common Options */
	if (version < 1201)
		vs_field(vs, "CbsCmnNbioPcieLoopback", 1);
	else
		vs_reserved(vs, 1); /* PCIe loopback Mode was dropped in 1201 */
	vs_field(vs, "CbsCmnGnbScpcAttrCtrl", 1);
	vs_reserved(vs, 6);
	vs_field(vs, "CbsCmnNbioDlfCap", 1);
	vs_field(vs, "CbsCmnNbioDlfEx", 1);
	vs_field(vs, "CbsCmnNbioSris", 1);
	vs_field(vs, "CbsCmnGnbACSEnable", 1);
	if (version < 1201)
		vs_field(vs, "CbsCmnNbioPcieTenBitTag", 1);
	else
		vs_reserved(vs, 1); /* moved to the end of the structure in 1201 */
	vs_field(vs, "CbsCmnNbioPcieAriEnum", 1);
	vs_field(vs, "CbsCmnNbioPcieAriSupport", 1);
	vs_field(vs, "CbsCmnNbioPresenceDetectMode", 1);
	vs_field(vs, "CbsCmnNbioHotPlugMode", 1);
	vs_field(vs, "CbsCmnNbioPresenceDetectSettle", 1);
	vs_field(vs, "CbsCmnNbioEarlyLinkSpeed", 1);
	vs_field(vs, "CbsCmnNbioAerCap", 1);
	vs_field(vs, "CbsCmnNbioPcieLinkSpeedCap", 1);
	vs_field(vs, "CbsCmnNbioPcieTargetLinkSpeed", 1);
	vs_field(vs, "CbsCmnNbioAspm", 1);
	vs_field(vs, "CbsCmnNbioAllowCompliance", 2);
	vs_reserved(vs, 9);
	vs_field(vs, "CbsDbgGnbNbifAcsRccDev0", 1);
	vs_field(vs, "CbsDbgGnbNbifAcsP2pReq", 1);
	vs_field(vs, "CbsDbgGnbNbifAcsSourceVal", 1);
	vs_reserved(vs, 7);
	vs_field(vs, "CbsCmnNbioRasAcsReqValue", 1);
	vs_pad_to(vs, 0x374);
	vs_field(vs, "CbsSevSnpSupport", 1);
	vs_field(vs, "CbsDbgGnbDrtmMemRsv", 1);
	vs_field(vs, "CbsDbgGnbDrtmVirtDev", 1);
	vs_field(vs, "CbsCmnGnbNbIOMMU", 1);
	vs_field(vs, "CbsCmnGnbPrebootDmaProt", 1);
	vs_field(vs, "CbsCmnGnbKernelDmaProtIndicator", 1);
	vs_pad_to(vs, 0x3E0);
	vs_field(vs, "CbsCmnFchPlatformId", 32); /* 16 CHAR16 */
	vs_pad_to(vs, 0x420);
	/* SMU Common Options */
	vs_field(vs, "CbsCmnDeterminismCtrl", 1);
	vs_field(vs, "CbsCmnDeterminismEnable", 1);
	vs_field(vs, "CbsCmnApbdis", 1);
	vs_field(vs, "CbsCmnDfCstates", 1);
	vs_field(vs, "CbsCmnXgmiForceWidthCtrl", 1);
	vs_field(vs, "CbsCmnXgmiForceWidth", 1);
	vs_field(vs, "CbsCmnXgmiMaxWidthCtrl", 1);
	vs_field(vs, "CbsCmnXgmiMaxWidth", 1);
	vs_pad_to(vs, 0x600);
	if (version >= 1201) {
		/* AGESA appends new fields at the end of CBS_CONFIG */
		vs_field(vs, "CbsCmnNbioPcieTenBitTag", 1);
		vs_field(vs, "CbsCmnGnbSevTioSupport", 1);
		vs_field(vs, "CbsCmnGnbPcieIdeCap", 1);
		vs_pad_to(vs, 0x610);
	}
	return vs;
}

#define ENABLE_DISABLE_AUTO(autov) OPTS({"Disable", 0}, {"Enable", 1}, {"Auto", autov})
#define ENABLED_DISABLED_AUTO(autov) OPTS({"Disabled", 0}, {"Enabled", 1}, {"Auto", autov})

static void root_form(struct formset *fs)
{
	f_form(fs, F_ROOT, "AMD CBS");
	f_subtitle(fs, "AMD CBS");
	f_subtitle(fs, "");
	f_text(fs, "AMD CBS Revision Number", fs->version >= 1201 ? "0xF62" : "0xF47");
	f_subtitle(fs, "");
	f_ref(fs, "CPU Common Options", NULL, F_CPU);
	f_ref(fs, "DF Common Options", NULL, F_DF);
	f_ref(fs, "UMC Common Options", NULL, F_UMC);
	f_ref(fs, "NBIO Common Options", NULL, F_NBIO);
	c_suppress(fs);
	x_true(fs);
	c_body(fs);
	f_ref(fs, "FCH Common Options", NULL, F_FCH);
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsComboFlag", 0xFF);
	c_body(fs);
	q_numeric(fs, &(struct qdef){.prompt = "Combo CBS", .help = "No help string", .field = "CbsComboFlag",
				     .def = 254, .min = 0, .max = 0xFF, .hex = true});
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "NewRecordOffset", 0);
	c_body(fs);
	q_numeric(fs, &(struct qdef){.prompt = "NewRecordOffset", .help = "No help string", .field = "NewRecordOffset",
				     .def = 0, .min = 0, .max = 0xFFFFFFFF, .hex = true});
	c_end(fs);
	f_form_end(fs);
}

static void cpu_form(struct formset *fs)
{
	f_form(fs, F_CPU, "CPU Common Options");
	f_subtitle(fs, "CPU Common Options");
	f_subtitle(fs, "");
	f_ref(fs, "Thread Enablement", NULL, F_THREAD);
	f_ref(fs, "Prefetcher settings", NULL, F_PREFETCH);
	f_text(fs, "", "");
	c_suppress(fs);
	x_true(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "RedirectForReturnDis",
				   .help = "From a workaround for GCC/C000005 issue for XV Core on CZ A0, setting "
					   "MSRC001_1029 Decode Configuration (DE_CFG) bit 14 [DecfgNoRdrctForReturns] to 1",
				   .field = "CbsCmnCpuGenWA05", .opts = OPTS({"Auto", 0xFF}, {"1", 1}, {"0", 0}), .def = 0xFF});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Platform First Error Handling",
				   .help = "Enable/disable PFEH, cloak individual banks, and mask deferred error "
					   "interrupts from each bank.",
				   .field = "CbsCmnCpuPfeh", .opts = OPTS({"Enabled", 1}, {"Disabled", 0}, {"Auto", 3}),
				   .def = 3});
	q_oneof(fs, &(struct qdef){.prompt = "Core Performance Boost", .help = "Disable CPB", .field = "CbsCmnCpuCpb",
				   .opts = OPTS({"Disabled", 0}, {"Auto", 1}), .def = 1});
	q_oneof(fs, &(struct qdef){.prompt = "Global C-state Control",
				   .help = "Controls IO based C-state generation and DF C-states.",
				   .field = "CbsCmnCpuGlobalCstateCtrl", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}, {"Auto", 3}),
				   .def = 3});
	q_oneof(fs, &(struct qdef){.prompt = "Power Supply Idle Control", .help = "Power Supply Idle Control.",
				   .field = "CbsCmnGnbPowerSupplyIdleCtrl",
				   .opts = OPTS({"Low Current Idle", 1}, {"Typical Current Idle", 0}, {"Auto", 0xF}),
				   .def = 0xF});
	q_oneof(fs, &(struct qdef){.prompt = "Streaming Stores Control",
				   .help = "Enables or disables the streaming stores functionality",
				   .field = "CbsCmnCpuStreamingStoresCtrl",
				   .opts = OPTS({"Disabled", 1}, {"Enabled", 0}, {"Auto", 0xFF}), .def = 0xFF});
	q_oneof(fs, &(struct qdef){.prompt = "Local APIC Mode", .help = "Select local APIC operation modes",
				   .field = "CbsDbgCpuLApicMode",
				   .opts = OPTS({"Compatibility", 0}, {"xAPIC", 1}, {"x2APIC", 2}, {"Auto", 0xFF}),
				   .def = 0xFF, .mfg_set = true, .mfg = 2});
	q_oneof(fs, &(struct qdef){.prompt = "ACPI _CST C1 Declaration",
				   .help = "Determines whether or not to declare the C1 state to the OS.",
				   .field = "CbsCmnCpuCstC1Ctrl", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}, {"Auto", 3}),
				   .def = 3});
	q_oneof(fs, &(struct qdef){.prompt = "MCA error thresh enable", .help = "Enable MCA error thresholding.",
				   .field = "CbsCmnCpuMcaErrThreshEn", .opts = OPTS({"False", 0}, {"True", 1}, {"Auto", 0xFF}),
				   .def = 0xFF, .mfg_set = true, .mfg = 1});
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpuMcaErrThreshEn", 1);
	c_body(fs);
	q_numeric(fs, &(struct qdef){.prompt = "MCA error thresh count",
				     .help = "Effective error threshold count = 0xFFF (4095) - <this value> (e.g. the default "
					     "value of 0xFF5 (4085) results in a threshold of 0xA (10)).",
				     .field = "CbsCmnCpuMcaErrThreshCount", .def = 0xFF5, .min = 0, .max = 0xFFE, .hex = true});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "PPIN Opt-in", .help = "Turn on PPIN feature", .field = "CbsCmnCpuPpinCtrl",
				   .opts = OPTS({"Disabled", 0}, {"Enabled", 1}, {"Auto", 0xFF}), .def = 0xFF,
				   .mfg_set = true, .mfg = 1});
	c_grayout(fs);
	x_ne(fs, "CbsCmnMemSmeMk", 0);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "SMEE",
				   .help = "Control secure memory encryption enable\n"
					   "Enabling both SMEE and SME-MK is not supported. Results in #GP",
				   .field = "CbsCmnCpuSmee", .opts = OPTS({"Disable", 0}, {"Enable", 1}, {"Auto", 3}), .def = 3});
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpuSmee", 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "SEV Control",
				   .help = "Can be used to disable SEV. To re-enable SEV, a POWER CYCLE is needed after "
					   "selecting the 'Enable' option.",
				   .field = "CbsPspSevCtrl", .opts = OPTS({"Enable", 0}, {"Disable", 1}), .def = 0});
	c_end(fs);
	/* the SEV items stay hidden until SMEE is explicitly Enable and SEV Control is Enable */
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpuSmee", 1);
	x_ne(fs, "CbsPspSevCtrl", 0);
	x_or(fs);
	c_body(fs);
	q_numeric(fs, &(struct qdef){.prompt = "SEV-ES ASID Space Limit",
				     .help = "SEV-ES and SNP guests must use ASIDs in the range 1 through (this value -1). "
					     "SEV guests must use ASIDs in the range of this value through 1006. To have all "
					     "ASIDs support SEV-ES or SNP guests, set this value to 1007. The default is 1: "
					     "all SEV guests and no SEV-ES or SNP guests.",
				     .field = "CbsCmnCpuSevAsidSpaceLimit", .def = 1, .min = 1, .max = 1007, .qflags = 0x14,
				     .qid = 0x700F});
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpuSmee", 1);
	x_ne(fs, "CbsPspSevCtrl", 0);
	x_or(fs);
	c_body(fs);
	uint64_t cover_default = fs->version >= 1201 ? 1 : 0xFF;
	q_oneof(fs, &(struct qdef){.prompt = "SNP Memory (RMP Table) Coverage", .help = "Enabled = ENTIRE system memory is covered.",
				   .field = "CbsDbgCpuSnpMemCover",
				   .opts = OPTS({"Disabled", 0}, {"Enabled", 1}, {"Custom", 2}, {"Auto", 0xFF}),
				   .def = cover_default});
	f_plant(fs, "changed", "SNP Memory (RMP Table) Coverage", "default changed: Auto (0xFF) -> Enabled (0x1)");
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsDbgCpuSnpMemCover", 2);
	c_body(fs);
	q_numeric(fs, &(struct qdef){.prompt = "Amount of Memory to Cover", .help = "Specify MB of System Memory to be covered in Hex.",
				     .field = "CbsDbgCpuSnpMemSizeCover", .def = 0x10, .min = 0x10, .max = 0x100000, .hex = true});
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpuSmee", 1);
	x_ne(fs, "CbsPspSevCtrl", 0);
	x_or(fs);
	x_ne(fs, "CbsDbgCpuSnpMemCover", 1);
	x_or(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Split RMP Table",
				   .help = "Control RMP Table Allocation. Enabled=Split RMP Table across sockets. "
					   "Disabled=Allocate RMP Table at the end of memory.",
				   .field = "CbsDbgCpuSplitRmp", .opts = ENABLED_DISABLED_AUTO(0xFF), .def = 0xFF});
	c_grayout(fs);
	x_ne(fs, "CbsDbgCpuSplitRmp", 0);
	x_ne(fs, "CbsDbgCpuSplitRmp", 0xFF);
	x_and(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Segmented RMP Table",
				   .help = "Control RMP_CFG[0] 'Segmented RMP' feature.  Enable = segmented RMP table. "
					   "Disable = legacy/old single non-segmented RMP table.",
				   .field = "CbsDbgCpuSegmentedRmp", .opts = ENABLED_DISABLED_AUTO(0xFF), .def = 0xFF});
	c_end(fs);
	c_suppress(fs);
	x_ne(fs, "CbsDbgCpuSegmentedRmp", 1);
	c_body(fs);
	if (fs->version >= 1201) {
		q_oneof(fs, &(struct qdef){.prompt = "RMP Segment Size",
					   .help = "Define RMP_CFG[13:8] RmpSegSize (as power of 2) used to split memory ranges "
						   "into segments, when Segmented RMP is enabled.",
					   .field = "CbsDbgCpuRmpSegSize",
					   .opts = OPTS({"64GB", 36}, {"128GB", 37}, {"256GB", 38}, {"512GB", 39}, {"1024GB", 40},
							{"2048GB", 41}, {"4096GB", 42}, {"8192GB", 43}, {"Auto", 0xFF}),
					   .def = 0xFF});
		f_plant(fs, "changed", "RMP Segment Size", "options added: 8192GB (43)");
	} else {
		q_oneof(fs, &(struct qdef){.prompt = "RMP Segment Size",
					   .help = "Define RMP_CFG[13:8] RmpSegSize (as power of 2) used to split memory ranges "
						   "into segments, when Segmented RMP is enabled.",
					   .field = "CbsDbgCpuRmpSegSize",
					   .opts = OPTS({"64GB", 36}, {"128GB", 37}, {"256GB", 38}, {"512GB", 39}, {"1024GB", 40},
							{"2048GB", 41}, {"4096GB", 42}, {"Auto", 0xFF}),
					   .def = 0xFF});
	}
	c_end(fs);
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "RMP Coverage for 64Bit MMIO Ranges",
				   .help = "Enable RMP coverage of the 64-bit MMIO ranges of the selected root bridges "
					   "(needed for SEV-TIO).",
				   .field = "CbsCmnCpu64BitMMIOCoverage", .opts = ENABLED_DISABLED_AUTO(0xFF), .def = 0xFF});
	c_suppress(fs);
	x_ne(fs, "CbsCmnCpu64BitMMIOCoverage", 1);
	c_body(fs);
	f_ref(fs, "64Bit MMIO RMP Coverage Root Bridges", NULL, F_RMP_MMIO);
	c_end(fs);
	f_form_end(fs);

	f_form(fs, F_RMP_MMIO, "64Bit MMIO RMP Coverage Root Bridges");
	for (int s = 0; s < 2; s++)
		for (int rb = 0; rb < 4; rb++)
			q_checkbox(fs, &(struct qdef){.prompt = sample_printf("Socket%d RootBridge%d", s, rb),
						      .help = "Cover the 64-bit MMIO range of this root bridge in the RMP.",
						      .field = sample_printf("CbsCmnCpu64BitMMIORmpS%dRb%d", s, rb),
						      .def = 0});
	f_form_end(fs);

	f_form(fs, F_THREAD, "Thread Enablement");
	f_subtitle(fs, "Thread Enablement");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "CCD Control", .help = "Sets the number of CCDs to be used.",
				   .field = "CbsCmnCpuCcdCtrl",
				   .opts = OPTS({"Auto", 0}, {"2 CCDs", 2}, {"4 CCDs", 4}, {"6 CCDs", 6}, {"8 CCDs", 8}), .def = 0,
				   .qflags = 0x14, .qid = 0x7010});
	q_oneof(fs, &(struct qdef){.prompt = "Core control", .help = "Sets the number of cores to be used.",
				   .field = "CbsCmnCpuCoreCtrl",
				   .opts = OPTS({"Auto", 0}, {"ONE (1 + 0)", 1}, {"TWO (2 + 0)", 2}, {"FOUR (4 + 0)", 4},
						{"SIX (6 + 0)", 6}, {"SEVEN (7 + 0)", 7}),
				   .def = 0});
	q_oneof(fs, &(struct qdef){.prompt = "SMT Control",
				   .help = "Can be used to disable symmetric multithreading. To re-enable SMT, a POWER CYCLE "
					   "is needed after selecting the 'Enable' option.",
				   .field = "CbsCmnCpuSmtCtrl", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	f_form_end(fs);

	f_form(fs, F_PREFETCH, "Prefetcher settings");
	f_subtitle(fs, "Prefetcher settings");
	f_subtitle(fs, "");
	static const struct {
		const char *prompt, *field, *help;
	} pf[] = {
		{"L1 Stream HW Prefetcher", "CbsCmnCpuL1StreamHwPrefetcher", "Option to Enable | Disable L1 Stream HW Prefetcher"},
		{"L1 Stride Prefetcher", "CbsCmnCpuL1StridePrefetcher",
		 "Uses memory access history of individual instructions to fetch additional lines when each access is a "
		 "constant distance from the previous."},
		{"L1 Region Prefetcher", "CbsCmnCpuL1RegionPrefetcher",
		 "Uses memory access history to fetch additional lines when the data access for a given instruction tends "
		 "to be followed by other data accesses."},
		{"L2 Stream HW Prefetcher", "CbsCmnCpuL2StreamHwPrefetcher", "Option to Enable | Disable L2 Stream HW Prefetcher"},
		{"L2 Up/Down Prefetcher", "CbsCmnCpuL2UpDownPrefetcher",
		 "Uses memory access history to determine whether to fetch the next or previous line for all memory accesses."},
		{"L1 Burst Prefetch Mode", "CbsCmnCpuL1BurstPrefetch", "Enable or disable the L1 burst prefetch mode."},
	};
	for (size_t i = 0; i < ARRAY_LEN(pf); i++)
		q_oneof(fs, &(struct qdef){.prompt = pf[i].prompt, .help = pf[i].help, .field = pf[i].field,
					   .opts = ENABLE_DISABLE_AUTO(3), .def = 3});
	f_form_end(fs);
}

static void xgmi_width_form(struct formset *fs, const char *old_path)
{
	f_form(fs, F_XGMI_WIDTH, "xGMI Link Width Control");
	f_subtitle(fs, "xGMI Link Width Control");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "xGMI Force Link Width Control",
				   .help = "Unforce - Do not force the xGMI to a fixed width. Force - Force the xGMI link to the "
					   "user specified width.",
				   .field = "CbsCmnXgmiForceWidthCtrl", .opts = OPTS({"Unforce", 0}, {"Force", 1}, {"Auto", 0xF}),
				   .def = 0xF});
	c_suppress(fs);
	x_ne(fs, "CbsCmnXgmiForceWidthCtrl", 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "xGMI Force Link Width", .help = "Force the xGMI link width.",
				   .field = "CbsCmnXgmiForceWidth", .opts = OPTS({"x4", 0}, {"x8", 1}, {"x16", 2}, {"Auto", 0xF}),
				   .def = 0xF});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "xGMI Max Link Width Control",
				   .help = "Auto - Use the default xGMI max supported link width. Manual - Set the xGMI max "
					   "link width.",
				   .field = "CbsCmnXgmiMaxWidthCtrl", .opts = OPTS({"Auto", 0}, {"Manual", 1}), .def = 0});
	c_suppress(fs);
	x_ne(fs, "CbsCmnXgmiMaxWidthCtrl", 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "xGMI Max Link Width", .help = "Specify the xGMI max link width.",
				   .field = "CbsCmnXgmiMaxWidth", .opts = OPTS({"x4", 0}, {"x8", 1}, {"x16", 2}, {"Auto", 0xF}),
				   .def = 0xF});
	c_end(fs);
	if (old_path) {
		const char *moved[] = {"xGMI Force Link Width Control", "xGMI Force Link Width", "xGMI Max Link Width Control",
				       "xGMI Max Link Width"};
		for (size_t i = 0; i < ARRAY_LEN(moved); i++)
			f_plant(fs, "moved", moved[i],
				sample_printf("menu moved from %s > xGMI Link Width Control", old_path));
	}
	f_form_end(fs);
}

static void df_forms(struct formset *fs)
{
	f_form(fs, F_DF, "DF Common Options");
	f_subtitle(fs, "DF Common Options");
	f_subtitle(fs, "");
	f_ref(fs, "Memory Addressing", NULL, F_MEMADDR);
	f_ref(fs, "ACPI", NULL, F_DF_ACPI);
	f_ref(fs, "Link", NULL, F_LINK);
	q_oneof(fs, &(struct qdef){.prompt = "DF C-States", .help = "Enable or disable DF C-States.", .field = "CbsCmnDfCstates",
				   .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
	f_form_end(fs);

	f_form(fs, F_MEMADDR, "Memory Addressing");
	f_subtitle(fs, "Memory Addressing");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "NUMA nodes per socket", .help = "Specifies the number of desired NUMA nodes per socket.",
				   .field = "CbsDfCmnDramNps",
				   .opts = OPTS({"NPS0", 0}, {"NPS1", 1}, {"NPS2", 2}, {"NPS4", 3}, {"Auto", 7}), .def = 7,
				   .qflags = 0x14, .qid = 0x701B});
	f_label(fs, 0x2BDD);
	q_oneof(fs, &(struct qdef){.prompt = "Memory interleaving",
				   .help = "Allows for disabling memory interleaving.  Note that NUMA nodes per socket will be "
					   "honored regardless of this setting.",
				   .field = "CbsDfCmnMemIntlv", .opts = ENABLED_DISABLED_AUTO(7), .def = 7, .qflags = 0x14,
				   .qid = 0x701E});
	c_suppress(fs);
	x_eq(fs, "CbsDfCmnMemIntlv", 0);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Memory interleaving size", .help = "Controls the memory interleaving size.",
				   .field = "CbsDfCmnMemIntlvSize",
				   .opts = OPTS({"256 Bytes", 0}, {"512 Bytes", 1}, {"1 KB", 2}, {"2 KB", 3}, {"4 KB", 4}, {"Auto", 7}),
				   .def = 7});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "1TB remap", .help = "Attempt to remap DRAM out of the space just below the 1TB boundary.",
				   .field = "CbsDfCmn1TbRemap",
				   .opts = OPTS({"Do not remap", 0}, {"Attempt to remap", 1}, {"Auto", 0xFF}), .def = 0xFF});
	f_form_end(fs);

	f_form(fs, F_DF_ACPI, "ACPI");
	f_subtitle(fs, "ACPI");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "ACPI SRAT L3 Cache As NUMA Domain",
				   .help = "Enabled: Each CCX in the system will be declared as a separate NUMA domain.\n"
					   "Disabled: Memory Addressing \\ NUMA nodes per socket will be declared.",
				   .field = "CbsDfCmnAcpiSratL3Numa", .opts = ENABLED_DISABLED_AUTO(0xFF), .def = 0xFF});
	q_oneof(fs, &(struct qdef){.prompt = "ACPI SLIT Distance Control", .help = "Determines how the SLIT distances are declared.",
				   .field = "CbsDfCmnAcpiSlitDistCtrl", .opts = OPTS({"Manual", 0}, {"Auto", 0xFF}), .def = 0xFF});
	c_suppress(fs);
	x_ne(fs, "CbsDfCmnAcpiSlitDistCtrl", 0);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "ACPI SLIT remote relative distance",
				   .help = "Set the remote socket distance for 2P systems as near (2.8) or far (3.2).",
				   .field = "CbsDfCmnAcpiSlitRemoteFar", .opts = OPTS({"Near", 0}, {"Far", 1}, {"Auto", 0xFF}),
				   .def = 0xFF});
	c_end(fs);
	f_form_end(fs);

	f_form(fs, F_LINK, "Link");
	f_subtitle(fs, "Link");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "xGMI Link Configuration",
				   .help = "Configures the number of xGMI links used on a multi-socket system.",
				   .field = "CbsDfXgmiLinkConfig",
				   .opts = OPTS({"Auto", 3}, {"3 xGMI Links", 1}, {"4 xGMI Links", 2}, {"2 xGMI Links + 2 PCI Links", 4}),
				   .def = 3});
	q_oneof(fs, &(struct qdef){.prompt = "4-link xGMI max speed",
				   .help = "Specifies the max frequency used for XGMI PState in a 4-link topology.",
				   .field = "CbsDfXgmi4LinkMaxSpeed",
				   .opts = OPTS({"20Gbps", 14}, {"25Gbps", 19}, {"32Gbps", 26}, {"Auto", 0xFF}), .def = 0xFF,
				   .qflags = 0x14, .qid = 0x7022});
	q_oneof(fs, &(struct qdef){.prompt = "3-link xGMI max speed",
				   .help = "Specifies the max frequency used for XGMI PState in a 3-link topology.",
				   .field = "CbsDfXgmi3LinkMaxSpeed",
				   .opts = OPTS({"20Gbps", 14}, {"25Gbps", 19}, {"32Gbps", 26}, {"Auto", 0xFF}), .def = 0xFF,
				   .qflags = 0x14, .qid = 0x7025});
	if (fs->version >= 1201)
		f_ref(fs, "xGMI Link Width Control", NULL, F_XGMI_WIDTH);
	f_form_end(fs);
	if (fs->version >= 1201)
		xgmi_width_form(fs, "Advanced > AMD CBS > NBIO Common Options > SMU Common Options");
}

static void umc_forms(struct formset *fs)
{
	f_form(fs, F_UMC, "UMC Common Options");
	f_subtitle(fs, "UMC Common Options");
	f_subtitle(fs, "");
	f_ref(fs, "DDR Security", NULL, F_DDR_SECURITY);
	f_form_end(fs);

	f_form(fs, F_DDR_SECURITY, "DDR Security");
	f_subtitle(fs, "DDR Security");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "TSME", .help = "Transparent SME", .field = "CbsCmnMemTsme",
				   .opts = OPTS({"Auto", 0xFF}, {"Enabled", 1}, {"Disabled", 0}), .def = 0xFF, .qflags = 0x14,
				   .qid = 0x70D2});
	q_oneof(fs, &(struct qdef){.prompt = "AES", .help = "AES mode: AES-128 or AES-256 (default)", .field = "CbsCmnMemAes",
				   .opts = OPTS({"AES-128", 0}, {"AES-256", 1}), .def = 1});
	q_oneof(fs, &(struct qdef){.prompt = "Data Scramble", .help = "Data scrambling: DataScrambleEn",
				   .field = "CbsCmnMemDataScramble", .opts = OPTS({"Enabled", 1}, {"Disabled", 0}), .def = 1,
				   .qflags = 0x14, .qid = 0x70D3});
	c_grayout(fs);
	x_ne(fs, "CbsCmnCpuSmee", 0);
	x_ne(fs, "CbsCmnCpuSmee", 3);
	x_and(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "SME-MK",
				   .help = "SME-MK encryption mode.\nEnabling both SMEE and SME-MK is not supported. Results in #GP.",
				   .field = "CbsCmnMemSmeMk", .opts = OPTS({"Enabled", 1}, {"Disabled", 0}), .def = 0});
	c_end(fs);
	f_form_end(fs);
}

static void nbio_forms(struct formset *fs)
{
	static const uint64_t settle_defaults[] = {0, UINT64_MAX};
	f_form(fs, F_NBIO, "NBIO Common Options");
	f_subtitle(fs, "NBIO Common Options");
	f_subtitle(fs, "");
	c_suppress(fs);
	x_const_equal(fs, 0, 1);
	c_body(fs);
	f_ref(fs, "NBIO RAS Common Options", NULL, F_NBIO_RAS);
	c_end(fs);
	f_ref(fs, "PCIE", NULL, F_PCIE);
	c_suppress(fs);
	x_true(fs);
	c_body(fs);
	f_ref(fs, "nBif Common Options", NULL, F_NBIF);
	c_end(fs);
	f_ref(fs, "IOMMU/Security", NULL, F_IOMMU);
	f_ref(fs, "SMU Common Options", NULL, F_SMU);
	f_text(fs, "", "");
	if (fs->version < 1201)
		q_oneof(fs, &(struct qdef){.prompt = "PCIe loopback Mode", .help = "Enable/Disable PcieLoopBackMode",
					   .field = "CbsCmnNbioPcieLoopback", .opts = OPTS({"Auto", 0xF}, {"Disabled", 0}, {"Enabled", 1}),
					   .def = 0xF});
	else
		f_plant(fs, "removed", "PCIe loopback Mode",
			sample_printf("option removed; AmdSetupBRH offset 0x%X is reserved now",
				      vs_find(cbs_varstore(1104), "CbsCmnNbioPcieLoopback")->offset));
	q_oneof(fs, &(struct qdef){.prompt = "SCPC attribute control",
				   .help = "Used to control the active behavior of IOMMU and DMAr support and DMA protection options",
				   .field = "CbsCmnGnbScpcAttrCtrl",
				   .opts = OPTS({"0", 0}, {"1", 1}, {"2", 2}, {"3", 3}, {"Customized", 0xFF}), .def = 0xFF,
				   .qflags = 0x14, .qid = 0x70DA});
	f_form_end(fs);

	f_form(fs, F_PCIE, "PCIE");
	q_oneof(fs, &(struct qdef){.prompt = "Data Link Feature Cap", .help = "Data Link Feature Capability",
				   .field = "CbsCmnNbioDlfCap", .opts = OPTS({"Enabled", 1}, {"Disabled", 0}, {"Auto", 0xF}),
				   .def = 0xF});
	c_suppress(fs);
	x_ne(fs, "CbsCmnNbioDlfCap", 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Data Link Feature Exchange", .help = "Data Link Feature Exchange",
				   .field = "CbsCmnNbioDlfEx", .opts = OPTS({"Enabled", 1}, {"Disabled", 0}, {"Auto", 0xF}),
				   .def = 0xF});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "SRIS", .help = "SRIS", .field = "CbsCmnNbioSris",
				   .opts = OPTS({"Auto", 0xF}, {"Disable", 0}, {"Enable", 1}), .def = 0xF});
	c_suppress(fs);
	x_ne(fs, "CbsCmnNbioAerCap", 1);
	x_ne(fs, "CbsCmnNbioAerCap", 0xF);
	x_and(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "ACS Enable", .help = "AER must be enabled for ACS enable to work",
				   .field = "CbsCmnGnbACSEnable", .opts = OPTS({"Enable", 1}, {"Disabled", 0}, {"Auto", 0xF}),
				   .def = 0xF});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "PCIe Ten Bit Tag Support",
				   .help = "Enables PCIe ten bit tags for supported devices.\nAuto = Disabled",
				   .field = "CbsCmnNbioPcieTenBitTag", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	if (fs->pass == 2 && fs->version >= 1201) {
		const struct vfield *was = vs_find(cbs_varstore(1104), "CbsCmnNbioPcieTenBitTag");
		const struct vfield *now = vs_find(fs->vs[0], "CbsCmnNbioPcieTenBitTag");
		f_plant(fs, "changed", "PCIe Ten Bit Tag Support",
			sample_printf("varstore offset moved: AmdSetupBRH 0x%X -> 0x%X", was->offset, now->offset));
	}
	q_oneof(fs, &(struct qdef){.prompt = "PCIe ARI Enumeration", .help = "ARI Forwarding Enable for each downstream port",
				   .field = "CbsCmnNbioPcieAriEnum", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	q_oneof(fs, &(struct qdef){.prompt = "PCIe ARI Support", .help = "Enables Alternative Routing-ID Interpretation",
				   .field = "CbsCmnNbioPcieAriSupport", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	q_oneof(fs, &(struct qdef){.prompt = "Presence Detect Select mode", .help = "Control the Presence Detect Select mode",
				   .field = "CbsCmnNbioPresenceDetectMode",
				   .opts = OPTS({"OR", 0}, {"AND", 1}, {"Auto", 0xF}, {"In-Band Only", 2}, {"Out-Of-Band Only", 3}),
				   .def = 0xF});
	if (fs->version >= 1201) {
		q_oneof(fs, &(struct qdef){.prompt = "Hot Plug Handling mode", .help = "Control the Hot Plug Handling mode",
					   .field = "CbsCmnNbioHotPlugMode",
					   .opts = OPTS({"OS First", 1}, {"Firmware First/EDR if OS supports", 3},
							{"Firmware First but allow OS First", 6}, {"Auto", 0xF}),
					   .def = 0xF, .min = 1});
		f_plant(fs, "changed", "Hot Plug Handling mode", "options removed: System Firmware Intermediary (5)");
	} else {
		q_oneof(fs, &(struct qdef){.prompt = "Hot Plug Handling mode", .help = "Control the Hot Plug Handling mode",
					   .field = "CbsCmnNbioHotPlugMode",
					   .opts = OPTS({"OS First", 1}, {"Firmware First/EDR if OS supports", 3},
							{"Firmware First but allow OS First", 6}, {"System Firmware Intermediary", 5},
							{"Auto", 0xF}),
					   .def = 0xF, .min = 1});
	}
	/* Real CBS forms flag two options of this question as the default; kept as found. */
	q_oneof(fs, &(struct qdef){.prompt = "Presence Detect State Settle Time",
				   .help = "Presence Detect State Settle Time Enable/Disable", .field = "CbsCmnNbioPresenceDetectSettle",
				   .opts = OPTS({"Auto", 0}, {"True", 1}, {"False", 0}), .def = 0, .extra_defaults = settle_defaults});
	q_oneof(fs, &(struct qdef){.prompt = "Early Link Speed", .help = "Set Early Link Speed", .field = "CbsCmnNbioEarlyLinkSpeed",
				   .opts = OPTS({"Auto", 0}, {"Gen1", 1}, {"Gen2", 2}), .def = 0});
	q_oneof(fs, &(struct qdef){.prompt = "Enable AER Cap", .help = "Enables Advanced Error Reporting Capability",
				   .field = "CbsCmnNbioAerCap", .opts = OPTS({"Enable", 1}, {"Disabled", 0}, {"Auto", 0xF}), .def = 0xF});
	c_suppress(fs);
	x_true(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "PCIE Link Speed Capability", .help = "Set all PCIe port speed capability",
				   .field = "CbsCmnNbioPcieLinkSpeedCap",
				   .opts = OPTS({"Maximum speed", 0}, {"Gen1", 1}, {"Gen2", 2}, {"GEN3", 3}, {"GEN4", 4}, {"GEN5", 5},
						{"Auto", 0xF}),
				   .def = 0xF});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "PCIE Target Link Speed", .help = "Set PCIe speed on all ports",
				   .field = "CbsCmnNbioPcieTargetLinkSpeed",
				   .opts = OPTS({"Maximum speed", 0}, {"Gen1", 1}, {"Gen2", 2}, {"GEN3", 3}, {"GEN4", 4}, {"GEN5", 5},
						{"Auto", 0xFF}),
				   .def = 0xFF});
	q_oneof(fs, &(struct qdef){.prompt = "ASPM Control", .help = "No help string", .field = "CbsCmnNbioAspm",
				   .opts = OPTS({"Disable", 0}, {"L0s", 1}, {"L1", 2}, {"Auto", 0xFF}), .def = 0xFF});
	q_oneof(fs, &(struct qdef){.prompt = "Allow Compliance", .help = "When enabled, allows the PCIe RP to enter Polling.Compliance state",
				   .field = "CbsCmnNbioAllowCompliance", .opts = OPTS({"Auto", 0xF}, {"Disable", 1}, {"Enable", 0}),
				   .def = 0xF});
	f_form_end(fs);

	f_form(fs, F_NBIF, "nBif Common Options");
	q_oneof(fs, &(struct qdef){.prompt = "ACS Rcc_Dev0", .help = "ACS strap of the NBIF device 0",
				   .field = "CbsDbgGnbNbifAcsRccDev0", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	q_oneof(fs, &(struct qdef){.prompt = "P2pReq ACS Control", .help = "P2P request redirect ACS strap of the NBIF functions",
				   .field = "CbsDbgGnbNbifAcsP2pReq", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	q_oneof(fs, &(struct qdef){.prompt = "SourceVal ACS cntl", .help = "Source validation ACS strap of the NBIF functions",
				   .field = "CbsDbgGnbNbifAcsSourceVal", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	f_form_end(fs);

	f_form(fs, F_NBIO_RAS, "NBIO RAS Common Options");
	q_oneof(fs, &(struct qdef){.prompt = "ACS RAS Request Value", .help = "ACS behaviour on RAS events",
				   .field = "CbsCmnNbioRasAcsReqValue",
				   .opts = OPTS({"Direct Request Access", 0}, {"Request Blocking", 1}, {"Request Redirect", 2},
						{"Auto", 0xF}),
				   .def = 0xF});
	f_form_end(fs);

	f_form(fs, F_IOMMU, "IOMMU/Security");
	f_subtitle(fs, "IOMMU/Security");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "SEV-SNP Support",
				   .help = "Enables support for Secure Encrypted Virtualization and Secure Nested Paging",
				   .field = "CbsSevSnpSupport", .opts = ENABLE_DISABLE_AUTO(0xF), .def = 0xF});
	c_suppress(fs);
	x_const_equal(fs, 0, 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "DRTM Memory Reservation",
				   .help = "Reserve 128MB memory below Bottom IO for DRTM. It is required to be enabled for "
					   "Secured-Core Server function.",
				   .field = "CbsDbgGnbDrtmMemRsv", .opts = ENABLED_DISABLED_AUTO(0xFF), .def = 0xFF});
	q_oneof(fs, &(struct qdef){.prompt = "DRTM Virtual Device Support", .help = "Enable DRTM ACPI virtual device.",
				   .field = "CbsDbgGnbDrtmVirtDev", .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
	c_end(fs);
	c_grayout(fs);
	x_ne(fs, "CbsCmnGnbScpcAttrCtrl", 0xFF);
	x_ne(fs, "CbsCmnGnbScpcAttrCtrl", 0);
	x_and(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "IOMMU", .help = "Enable/Disable IOMMU", .field = "CbsCmnGnbNbIOMMU",
				   .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
	c_end(fs);
	static const struct {
		const char *prompt, *help, *field;
	} dma[] = {
		{"Pre-boot DMA Protection", "Enable DMAr system protection during POST.", "CbsCmnGnbPrebootDmaProt"},
		{"Kernel DMA Protection Indicator", "Enable DMA remap support in IVRS IVinfo Field.",
		 "CbsCmnGnbKernelDmaProtIndicator"},
	};
	for (size_t i = 0; i < ARRAY_LEN(dma); i++) {
		c_suppress(fs);
		x_ne(fs, "CbsCmnGnbNbIOMMU", 1);
		c_body(fs);
		c_grayout(fs);
		x_ne(fs, "CbsCmnGnbScpcAttrCtrl", 0xFF);
		x_ne(fs, "CbsCmnGnbScpcAttrCtrl", 0);
		x_and(fs);
		x_ne(fs, "CbsCmnGnbScpcAttrCtrl", 1);
		x_and(fs);
		c_body(fs);
		q_oneof(fs, &(struct qdef){.prompt = dma[i].prompt, .help = dma[i].help, .field = dma[i].field,
					   .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
		c_end(fs);
		c_end(fs);
	}
	if (fs->version >= 1201) {
		/* new in the 1201 AGESA (reference/domain.md 1a: "newer Turin AGESA only") */
		c_suppress(fs);
		x_ne(fs, "CbsSevSnpSupport", 1);
		c_body(fs);
		q_oneof(fs, &(struct qdef){.prompt = "SEV-TIO Support",
					   .help = "Enables SEV Trusted I/O (TDISP device assignment to SEV-SNP guests). Requires "
						   "SEV-SNP Support.",
					   .field = "CbsCmnGnbSevTioSupport", .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
		f_plant(fs, "added", "SEV-TIO Support",
			sample_printf("new option: Disabled (0) / Enabled (1) / Auto (0xF), default Auto, AmdSetupBRH offset 0x%X",
				      vs_find(fs->vs[0], "CbsCmnGnbSevTioSupport")->offset));
		q_oneof(fs, &(struct qdef){.prompt = "PCIE IDE Capability",
					   .help = "Advertise the PCIe Integrity and Data Encryption capability on the root ports.",
					   .field = "CbsCmnGnbPcieIdeCap", .opts = ENABLED_DISABLED_AUTO(0xF), .def = 0xF});
		f_plant(fs, "added", "PCIE IDE Capability",
			sample_printf("new option: Disabled (0) / Enabled (1) / Auto (0xF), default Auto, AmdSetupBRH offset 0x%X",
				      vs_find(fs->vs[0], "CbsCmnGnbPcieIdeCap")->offset));
		c_end(fs);
	}
	f_form_end(fs);

	f_form(fs, F_SMU, "SMU Common Options");
	f_subtitle(fs, "SMU Common Options");
	f_subtitle(fs, "");
	q_oneof(fs, &(struct qdef){.prompt = "Determinism Control", .help = "Auto = Use default performance determinism settings",
				   .field = "CbsCmnDeterminismCtrl", .opts = OPTS({"Manual", 1}, {"Auto", 0}), .def = 0});
	c_suppress(fs);
	x_ne(fs, "CbsCmnDeterminismCtrl", 1);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Determinism Enable", .help = "[0 = Power; 1 = Performance]",
				   .field = "CbsCmnDeterminismEnable", .opts = OPTS({"Power", 0}, {"Performance", 1}), .def = 0});
	c_end(fs);
	q_oneof(fs, &(struct qdef){.prompt = "APBDIS", .help = "0 = not APBDIS (mission mode)\n1 = APBDIS",
				   .field = "CbsCmnApbdis", .opts = OPTS({"0", 0}, {"1", 1}, {"Auto", 0xF}), .def = 0xF});
	if (fs->version < 1201)
		f_ref(fs, "xGMI Link Width Control", NULL, F_XGMI_WIDTH);
	f_form_end(fs);
	if (fs->version < 1201)
		xgmi_width_form(fs, NULL);
}

static void fch_form(struct formset *fs)
{
	f_form(fs, F_FCH, "FCH Common Options");
	f_subtitle(fs, "FCH Common Options");
	/* Real CBS forms carry no string question; this one stands on the page the real forms hide
	 * (SuppressIf True above) so the CBS formset has every question kind. */
	q_string(fs, &(struct qdef){.prompt = "FCH Platform Identifier",
				    .help = "Platform identifier reported by the FCH to the BMC (up to 16 characters).",
				    .field = "CbsCmnFchPlatformId", .max_size = 16});
	f_form_end(fs);
}

void cbs_define(struct formset *fs)
{
	f_formset_begin(fs);
	f_varstore(fs, cbs_varstore(fs->version));
	root_form(fs);
	cpu_form(fs);
	df_forms(fs);
	umc_forms(fs);
	nbio_forms(fs);
	fch_form(fs);
	f_formset_end(fs);
}
