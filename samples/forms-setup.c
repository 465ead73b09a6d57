/* The AMI Setup formset of the sample BIOS (module Setup, formset 7B59104A-C00D-4158-87FF-
 * F04D6396A915, varstore "Setup" EC87D643-EBA4-4BB5-A1E5-3F3E36B20DA9 id 0xF101).
 *
 * Shape and encoding follow the AMI Setup forms in the corpus
 * (corpus/ifr/asus-wrx90e-sage-se_1203_AmiSetup.ifr.txt): a root form 0x2710 with one goto per
 * page, form ids 0x27xx/0x2Axx, the many small varstores AMI declares next to "Setup", defaults as
 * DEFAULT opcodes for ids 0 and 1 or as option flags 0x30, and grey-out on the SystemAccess
 * question for user-level access. Offsets of SVM Mode (0xFD) and the PCI subsystem items (0x102..)
 * follow reference/domain.md 1d. The Advanced page links to the AMD CBS formset (REF3). */
#include "forms.h"

#include <string.h>

#define SETUP_GUID "EC87D643-EBA4-4BB5-A1E5-3F3E36B20DA9"
#define EFI_GLOBAL_GUID "8BE4DF61-93CA-11D2-AA0D-00E098032B8C"

enum {
	F_ROOT = 0x2710,
	F_MAIN = 0x2713,
	F_ADVANCED = 0x2715,
	F_BOOT = 0x2718,
	F_EXIT = 0x271A,
	F_SECURITY = 0x271C,
	F_CPU = 0x2A14,
	F_PCI = 0x2A25,
	F_PCIE = 0x2A26,
	F_SECURE_BOOT = 0x2AF2,
	CBS_ROOT_FORM = 0x7000,
};

static const struct fw_guid cbs_formset_guid = FW_GUID_INIT(0xB04535E3, 0x3004, 0x4946, 0x9E, 0xB7, 0x14, 0x94, 0x28, 0x98, 0x30, 0x53);

static struct varstore *setup_varstore(int version)
{
	struct varstore *vs = vs_new("Setup", SETUP_GUID, 0xF101, 0x7);
	vs_reserved(vs, 0x20);
	vs_field(vs, "AssetTag", 64); /* 32 CHAR16 */
	vs_reserved(vs, 0x10);
	vs_field(vs, "NumLock", 1);
	if (version < 1201)
		vs_field(vs, "CsmSupport", 1);
	else
		vs_reserved(vs, 1); /* CSM was dropped in 1201 */
	vs_pad_to(vs, 0xFC);
	vs_field(vs, "SmmLock", 1);
	vs_field(vs, "SvmMode", 1);
	vs_field(vs, "MmioAbove4GLimit", 1);
	vs_reserved(vs, 3);
	vs_field(vs, "Above4gDecode", 1);
	vs_field(vs, "ReBarSupport", 1);
	vs_field(vs, "SriovSupport", 1);
	if (version >= 1201)
		vs_field(vs, "BmeDmaMitigation", 1);
	else
		vs_reserved(vs, 1);
	vs_pad_to(vs, 0x10B);
	vs_field(vs, "RelaxedOrdering", 1);
	vs_field(vs, "ExtTagField", 1);
	vs_field(vs, "NoSnoop", 1);
	vs_field(vs, "MaxPayload", 1);
	vs_field(vs, "MaxReadRequest", 1);
	vs_pad_to(vs, 0x215);
	return vs;
}

static void varstores(struct formset *fs)
{
	f_varstore(fs, setup_varstore(fs->version));
	struct varstore *lang = vs_new("PlatformLang", EFI_GLOBAL_GUID, 0xF009, 0x7);
	vs_reserved(lang, 2);
	f_varstore(fs, lang);
	struct varstore *access = vs_new("SystemAccess", "E770BB69-BCB4-4D04-9E97-23FF9456FEAC", 0xF000, 0x7);
	vs_field(access, "Access", 1);
	f_varstore(fs, access);
	struct varstore *tse = vs_new("AMITSESetup", "C811FA38-42C8-4579-A9BB-60E94EDDFB34", 0xF013, 0x7);
	vs_field(tse, "AdminPassword", 40);
	vs_field(tse, "UserPassword", 40);
	vs_reserved(tse, 1);
	f_varstore(fs, tse);
	struct varstore *timeout = vs_new("Timeout", EFI_GLOBAL_GUID, 0xF005, 0x7);
	vs_field(timeout, "Timeout", 2);
	f_varstore(fs, timeout);
	struct varstore *sb = vs_new("SecureBootSetup", "7B59104A-C00D-4158-87FF-F04D6396A915", 0x16, 0x7);
	vs_field(sb, "SecureBootSupport", 1);
	vs_field(sb, "SecureBootMode", 1);
	vs_reserved(sb, 5);
	f_varstore(fs, sb);
	struct varstore *usb = vs_new("UsbSupport", SETUP_GUID, 0x13, 0x7);
	usb->efi = true;
	vs_reserved(usb, 0x31);
	f_varstore(fs, usb);
}

/* Grey out for a user-level login, as every AMI page does */
static void user_grayout(struct formset *fs)
{
	c_grayout(fs);
	x_eq(fs, "SystemAccess.Access", 1);
	c_body(fs);
}

static void main_form(struct formset *fs)
{
	f_form(fs, F_MAIN, "Main");
	f_subtitle(fs, "BIOS Information");
	f_text(fs, "BIOS Vendor", "American Megatrends Inc.");
	f_text(fs, "Core Version", "5.37");
	f_text(fs, "Compliancy", "UEFI 2.9; PI 1.8");
	f_text(fs, "Project Version", fs->version >= 1201 ? "1201 x64" : "1104 x64");
	f_text(fs, "Build Date and Time", fs->version >= 1201 ? "08/22/2025 15:47:03" : "04/18/2025 10:12:55");
	f_text(fs, "Access Level", "Administrator");
	f_subtitle(fs, "");
	c_suppress(fs);
	x_true(fs);
	c_body(fs);
	q_oneof(fs, &(struct qdef){.prompt = "System Access", .help = "", .field = "SystemAccess.Access",
				   .opts = OPTS({"Administrator", 0}, {"User", 1}), .def = 0, .qid = 0x4D7});
	c_end(fs);
	q_string(fs, &(struct qdef){.prompt = "System Asset Tag", .help = "Enter the asset tag of this system (up to 32 characters).",
				    .field = "AssetTag", .max_size = 32});
	f_form_end(fs);
}

static void advanced_forms(struct formset *fs)
{
	f_form(fs, F_ADVANCED, "Advanced");
	f_ref(fs, "CPU Configuration", "CPU Configuration Parameters", F_CPU);
	f_ref(fs, "PCI Subsystem Settings", "PCI, PCI-X and PCI Express Settings.", F_PCI);
	f_ref_formset(fs, "AMD CBS", &cbs_formset_guid, CBS_ROOT_FORM);
	f_form_end(fs);

	f_form(fs, F_CPU, "CPU Configuration");
	f_subtitle(fs, "CPU Configuration");
	f_subtitle(fs, "");
	f_text(fs, "Processor Family", "1Ah");
	q_oneof(fs, &(struct qdef){.prompt = "SMM Lock", .help = "Enable/disable SMM Lock", .field = "SmmLock",
				   .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1});
	q_oneof(fs, &(struct qdef){.prompt = "SVM Mode", .help = "Enable/disable CPU Virtualization", .field = "SvmMode",
				   .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1});
	f_form_end(fs);

	f_form(fs, F_PCI, "PCI Subsystem Settings");
	f_subtitle(fs, "PCI Bus Driver Version       A5.01.33");
	f_subtitle(fs, "");
	user_grayout(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Above 4G Decoding",
				   .help = "Enables or Disables 64bit capable Devices to be Decoded in Above 4G Address Space "
					   "(Only if System Supports 64 bit PCI Decoding).",
				   .field = "Above4gDecode", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1,
				   .default_ops = true});
	c_end(fs);
	c_grayout(fs);
	x_eq(fs, "Above4gDecode", 0);
	c_body(fs);
	if (fs->version >= 1201) {
		q_oneof(fs, &(struct qdef){.prompt = "Above 4GB MMIO Limit",
					   .help = "Select Above 4GB MMIO Limit to 40~47 bits limit. This option works only when "
						   "'Above 4G decoding' is enabled",
					   .field = "MmioAbove4GLimit",
					   .opts = OPTS({"40bit (1TB)", 40}, {"41bit (2TB)", 41}, {"42bit (4TB)", 42}, {"43bit (8TB)", 43},
							{"44bit (16TB)", 44}, {"45bit (32TB)", 45}, {"46bit (64TB)", 46},
							{"47bit (128TB)", 47}, {"AUTO", 255}),
					   .def = 44});
		f_plant(fs, "changed", "Above 4GB MMIO Limit", "options added: 47bit (128TB) (47)");
		f_plant(fs, "changed", "Above 4GB MMIO Limit", "default changed: 43bit (8TB) (43) -> 44bit (16TB) (44)");
	} else {
		q_oneof(fs, &(struct qdef){.prompt = "Above 4GB MMIO Limit",
					   .help = "Select Above 4GB MMIO Limit to 40~46 bits limit. This option works only when "
						   "'Above 4G decoding' is enabled",
					   .field = "MmioAbove4GLimit",
					   .opts = OPTS({"40bit (1TB)", 40}, {"41bit (2TB)", 41}, {"42bit (4TB)", 42}, {"43bit (8TB)", 43},
							{"44bit (16TB)", 44}, {"45bit (32TB)", 45}, {"46bit (64TB)", 46}, {"AUTO", 255}),
					   .def = 43});
	}
	c_end(fs);
	c_suppress(fs);
	x_eq(fs, "Above4gDecode", 0);
	c_body(fs);
	user_grayout(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Resize BAR Support",
				   .help = "If the system has Resize BAR capable PCIe Devices, this option Enables or Disables "
					   "Resize BAR Support.(Only if System Support 64 bit PCI Decoding)",
				   .field = "ReBarSupport", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1,
				   .default_ops = true});
	c_end(fs);
	c_end(fs);
	user_grayout(fs);
	uint64_t sriov_default = fs->version >= 1201 ? 1 : 0;
	q_oneof(fs, &(struct qdef){.prompt = "SR-IOV Support",
				   .help = "If system has SR-IOV capable PCIe Devices, this option Enables or Disables Single Root "
					   "IO Virtualization Support.",
				   .field = "SriovSupport", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = sriov_default,
				   .default_ops = true});
	f_plant(fs, "changed", "SR-IOV Support", "default changed: Disabled (0) -> Enabled (1)");
	c_end(fs);
	if (fs->version >= 1201) {
		user_grayout(fs);
		q_oneof(fs, &(struct qdef){.prompt = "BME DMA Mitigation",
					   .help = "Re-enable Bus Master Attribute disabled during Pci enumeration for PCI Bridges "
						   "after SMM Locked",
					   .field = "BmeDmaMitigation", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 0});
		c_end(fs);
		f_plant(fs, "added", "BME DMA Mitigation",
			sample_printf("new option: Disabled (0) / Enabled (1), default Disabled, Setup offset 0x%X",
				      vs_find(fs->vs[0], "BmeDmaMitigation")->offset));
	}
	f_ref(fs, "PCI Express Settings", "Change PCI Express Devices Settings.", F_PCIE);
	f_form_end(fs);

	f_form(fs, F_PCIE, "PCI Express Settings");
	f_subtitle(fs, "PCI Express Device Register Settings");
	user_grayout(fs);
	q_oneof(fs, &(struct qdef){.prompt = "Relaxed Ordering", .help = "Enables or Disables PCI Express Device Relaxed Ordering.",
				   .field = "RelaxedOrdering", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1,
				   .default_ops = true});
	q_oneof(fs, &(struct qdef){.prompt = "Extended Tag",
				   .help = "If ENABLED allows Device to use 8-bit Tag field as a requester.", .field = "ExtTagField",
				   .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 0, .default_ops = true});
	q_oneof(fs, &(struct qdef){.prompt = "No Snoop", .help = "Enables or Disables PCI Express Device No Snoop option.",
				   .field = "NoSnoop", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 1, .default_ops = true});
	q_oneof(fs, &(struct qdef){.prompt = "Maximum Payload", .help = "Set Maximum Payload of PCI Express Device or allow System BIOS to select the value.",
				   .field = "MaxPayload",
				   .opts = OPTS({"Auto", 55}, {"128 Bytes", 0}, {"256 Bytes", 1}, {"512 Bytes", 2}, {"1024 Bytes", 3},
						{"2048 Bytes", 4}, {"4096 Bytes", 5}),
				   .def = 55});
	q_oneof(fs, &(struct qdef){.prompt = "Maximum Read Request",
				   .help = "Set Maximum Read Request Size of PCI Express Device or allow System BIOS to select the value.",
				   .field = "MaxReadRequest",
				   .opts = OPTS({"Auto", 55}, {"128 Bytes", 0}, {"256 Bytes", 1}, {"512 Bytes", 2}, {"1024 Bytes", 3},
						{"2048 Bytes", 4}, {"4096 Bytes", 5}),
				   .def = 55});
	c_end(fs);
	f_form_end(fs);
}

static void boot_form(struct formset *fs)
{
	f_form(fs, F_BOOT, "Boot");
	f_subtitle(fs, "Boot Configuration");
	q_numeric(fs, &(struct qdef){.prompt = "Setup Prompt Timeout",
				     .help = "Number of seconds to wait for setup activation key. 65535(0xFFFF) means indefinite waiting.",
				     .field = "Timeout.Timeout", .def = 1, .min = 0, .max = 0xFFFF, .step = 1});
	q_oneof(fs, &(struct qdef){.prompt = "Bootup NumLock State", .help = "Select the keyboard NumLock state",
				   .field = "NumLock", .opts = OPTS({"On", 1}, {"Off", 0}), .def = 1});
	if (fs->version < 1201)
		q_oneof(fs, &(struct qdef){.prompt = "CSM Support",
					   .help = "Enable/Disable CSM Support. Resize BAR Support requires CSM to be disabled.",
					   .field = "CsmSupport", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}), .def = 0});
	else
		f_plant(fs, "removed", "CSM Support", "option removed together with the CsmDxe module");
	f_form_end(fs);
}

static void security_forms(struct formset *fs)
{
	f_form(fs, F_SECURITY, "Security");
	f_subtitle(fs, "Password Description");
	f_subtitle(fs, "");
	f_text(fs, "Minimum length", "3");
	f_text(fs, "Maximum length", "20");
	c_grayout(fs);
	x_eq(fs, "SystemAccess.Access", 1);
	c_body(fs);
	q_password(fs, &(struct qdef){.prompt = "Administrator Password", .help = "Set Administrator Password",
				      .field = "AMITSESetup.AdminPassword", .max_size = 20});
	c_end(fs);
	q_password(fs, &(struct qdef){.prompt = "User Password", .help = "Set User Password",
				      .field = "AMITSESetup.UserPassword", .max_size = 20});
	f_ref(fs, "Secure Boot", "Secure Boot configuration", F_SECURE_BOOT);
	f_form_end(fs);

	f_form(fs, F_SECURE_BOOT, "Secure Boot");
	f_text(fs, "System Mode", "User");
	q_oneof(fs, &(struct qdef){.prompt = "Secure Boot",
				   .help = "Secure Boot feature is Active if Secure Boot is Enabled, Platform Key(PK) is enrolled "
					   "and the System is in User mode.",
				   .field = "SecureBootSetup.SecureBootSupport", .opts = OPTS({"Disabled", 0}, {"Enabled", 1}),
				   .def = 0});
	q_oneof(fs, &(struct qdef){.prompt = "Secure Boot Mode", .help = "Secure Boot mode options: Standard or Custom.",
				   .field = "SecureBootSetup.SecureBootMode", .opts = OPTS({"Standard", 0}, {"Custom", 1}), .def = 0});
	f_form_end(fs);
}

void setup_define(struct formset *fs)
{
	f_formset_begin(fs);
	varstores(fs);
	f_form(fs, F_ROOT, "Setup");
	f_ref(fs, "Main", "", F_MAIN);
	f_ref(fs, "Advanced", "", F_ADVANCED);
	f_ref(fs, "Boot", "", F_BOOT);
	f_ref(fs, "Security", "", F_SECURITY);
	f_ref(fs, "Exit", "", F_EXIT);
	f_form_end(fs);
	main_form(fs);
	advanced_forms(fs);
	boot_form(fs);
	security_forms(fs);
	f_form(fs, F_EXIT, "Exit");
	f_subtitle(fs, "Save Options");
	f_form_end(fs);
	f_formset_end(fs);
}
