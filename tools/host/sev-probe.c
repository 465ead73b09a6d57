/* The SEV platform state of the running machine, read the way `snphost ok` looks at it: the PSP's
 * SEV and SNP platform status through /dev/sev (SEV_ISSUE_CMD, include/uapi/linux/psp-sev.h),
 * SYSCFG and the RMP base/end MSRs through /dev/cpu/0/msr (arch/x86/include/asm/msr-index.h).
 * Read-only: only status commands are issued and MSRs are only read. Each probe records what it
 * read, or that it was not read and why (not root, no /dev/sev, msr module not loaded). */
#include "sev-probe.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "msr-cpus.h"
#include "msr-smm.h"
#include "parsers/view.h"

/* psp-sev.h: the ioctl and its command numbers (SNP_PLATFORM_STATUS is missing from older headers) */
struct sev_issue {
	uint32_t cmd;
	uint64_t data;
	uint32_t error;
} __attribute__((packed));
#define SEV_ISSUE _IOWR('S', 0x0, struct sev_issue)
#define SEV_CMD_PLATFORM_STATUS 1
#define SNP_CMD_PLATFORM_STATUS 9

#define MSR_SYSCFG 0xC0010010u
#define SYSCFG_MEM_ENCRYPT_BIT 23
#define SYSCFG_SNP_EN_BIT 24
#define SYSCFG_VMPL_EN_BIT 25
#define MSR_RMP_BASE 0xC0010132u
#define MSR_RMP_END 0xC0010133u
#define MSR_HWCR 0xC0010015u
#define HWCR_SMM_LOCK_BIT 0

static bool issue(int fd, uint32_t cmd, uint8_t *buf, uint32_t *fw_error, int *err)
{
	struct sev_issue c = {cmd, (uint64_t)(uintptr_t)buf, 0};
	if (ioctl(fd, SEV_ISSUE, &c) != 0) {
		*err = errno;
		*fw_error = c.error;
		return false;
	}
	return true;
}

static json_t *platform_status(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		char why[160];
		snprintf(why, sizeof(why), "%s: %s", dev, strerror(errno));
		json_t *o = json_object();
		json_object_set_new(o, "sev", fw_probe_not_read(dev, why));
		json_object_set_new(o, "snp", fw_probe_not_read(dev, why));
		return o;
	}
	json_t *o = json_object();
	static uint8_t page[4096] __attribute__((aligned(4096)));
	uint32_t fwerr = 0;
	int err = 0;
	char why[160];
	memset(page, 0, sizeof(page));
	if (issue(fd, SEV_CMD_PLATFORM_STATUS, page, &fwerr, &err)) {
		/* sev_user_data_status: api_major, api_minor, state u8; flags u32; build u8; guest_count u32 */
		json_t *s = json_object();
		json_object_set_new(s, "read", json_true());
		json_object_set_new(s, "source", json_string("SEV_ISSUE_CMD SEV_PLATFORM_STATUS"));
		json_object_set_new(s, "api_major", json_integer(page[0]));
		json_object_set_new(s, "api_minor", json_integer(page[1]));
		json_object_set_new(s, "state", json_integer(page[2]));
		json_object_set_new(s, "flags", fw_probe_hex(fw_le32(page + 3)));
		json_object_set_new(s, "build", json_integer(page[7]));
		json_object_set_new(s, "guest_count", json_integer(fw_le32(page + 8)));
		json_object_set_new(o, "sev", s);
	} else {
		snprintf(why, sizeof(why), "SEV_PLATFORM_STATUS: %s (firmware error 0x%x)", strerror(err), fwerr);
		json_object_set_new(o, "sev", fw_probe_not_read(dev, why));
	}
	memset(page, 0, sizeof(page));
	if (issue(fd, SNP_CMD_PLATFORM_STATUS, page, &fwerr, &err)) {
		/* sev_user_data_snp_status: api_major, api_minor, state, is_rmp_initialized:1; build_id u32;
		 * feature bits u32; guest_count u32; current and reported TCB u64 */
		json_t *s = json_object();
		json_object_set_new(s, "read", json_true());
		json_object_set_new(s, "source", json_string("SEV_ISSUE_CMD SNP_PLATFORM_STATUS"));
		json_object_set_new(s, "api_major", json_integer(page[0]));
		json_object_set_new(s, "api_minor", json_integer(page[1]));
		json_object_set_new(s, "state", json_integer(page[2]));
		json_object_set_new(s, "rmp_initialized", json_boolean(page[3] & 1));
		/* SNP ABI: byte 3 bit 1 ALIAS_CHECK_COMPLETE (CVE-2024-21944); the word at 8 holds the
		 * feature bits (mask_chip_id, mask_chip_key, vlek_en, feature_info, rapl_dis,
		 * ciphertext_hiding_cap, ciphertext_hiding_en) that psp-sev.h names */
		json_object_set_new(s, "alias_check_complete", json_boolean(page[3] >> 1 & 1));
		json_object_set_new(s, "status_flags", fw_probe_hex(page[3]));
		json_object_set_new(s, "features", fw_probe_hex(fw_le32(page + 8)));
		json_object_set_new(s, "build", json_integer(fw_le32(page + 4)));
		json_object_set_new(s, "guest_count", json_integer(fw_le32(page + 12)));
		json_object_set_new(s, "current_tcb", fw_probe_hex(fw_le64(page + 16)));
		json_object_set_new(s, "reported_tcb", fw_probe_hex(fw_le64(page + 24)));
		json_object_set_new(o, "snp", s);
	} else {
		snprintf(why, sizeof(why), "SNP_PLATFORM_STATUS: %s (firmware error 0x%x)", strerror(err), fwerr);
		json_object_set_new(o, "snp", fw_probe_not_read(dev, why));
	}
	close(fd);
	return o;
}

static json_t *msrs(const char *dev)
{
	char why[200];
	int fd = fw_msr_open(dev, why, sizeof(why));
	if (fd < 0)
		return fw_probe_not_read(dev, why);
	static const struct fw_msr_reg regs[] = {{"syscfg", MSR_SYSCFG}, {"rmp_base", MSR_RMP_BASE}, {"rmp_end", MSR_RMP_END}};
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string(dev));
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint64_t v;
		if (pread(fd, &v, sizeof(v), regs[i].msr) == (ssize_t)sizeof(v))
			json_object_set_new(o, regs[i].name, fw_probe_hex(v));
		else
			json_object_set_new(o, regs[i].name, json_null());
		if (regs[i].msr == MSR_SYSCFG && json_is_string(json_object_get(o, "syscfg"))) {
			json_object_set_new(o, "mem_encrypt", json_boolean(v >> SYSCFG_MEM_ENCRYPT_BIT & 1));
			json_object_set_new(o, "snp_en", json_boolean(v >> SYSCFG_SNP_EN_BIT & 1));
			json_object_set_new(o, "vmpl_en", json_boolean(v >> SYSCFG_VMPL_EN_BIT & 1));
		}
	}
	close(fd);
	return o;
}

/* HWCR on every CPU whose msr node opens: SmmLock must be set on each (firmware sets it per core). */
static json_t *hwcr_all(void)
{
	static const struct fw_msr_reg hwcr[] = {{"hwcr", MSR_HWCR}};
	return fw_msr_per_cpu("/dev/cpu/N/msr MSR C001_0015 (HWCR)", hwcr, 1);
}

/* CPUID Fn8000_001F as the capturing CPU reports it (raw registers; fw_sev_cpuid_facts decodes). */
static json_t *cpuid_sev(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x8000001Fu)
		return fw_probe_not_read("CPUID Fn8000_001F", "the CPU has no CPUID leaf 0x8000001F");
	__cpuid(0x8000001Fu, a, b, c, d);
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string("CPUID Fn8000_001F"));
	json_object_set_new(o, "eax", fw_probe_hex(a));
	json_object_set_new(o, "ebx", fw_probe_hex(b));
	json_object_set_new(o, "ecx", fw_probe_hex(c));
	json_object_set_new(o, "edx", fw_probe_hex(d));
	return o;
}

static json_t *opens(const char *dev, int flags)
{
	int fd = open(dev, flags | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return json_true();
	}
	return json_string(strerror(errno));
}

/* What `snphost ok` tries besides the status commands: /dev/sev opened for reading and for
 * writing, /dev/kvm, and the memlock limit of the capturing user (who starts guests on a host
 * where capture runs as that user). */
static json_t *devices_and_limits(void)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string("open(2) of /dev/sev and /dev/kvm, getrlimit(RLIMIT_MEMLOCK)"));
	json_object_set_new(o, "dev_sev_read", opens("/dev/sev", O_RDONLY));
	json_object_set_new(o, "dev_sev_write", opens("/dev/sev", O_WRONLY));
	json_object_set_new(o, "dev_kvm", opens("/dev/kvm", O_RDWR));
	struct rlimit rl;
	json_object_set_new(o, "uid", json_integer((json_int_t)getuid()));
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		json_object_set_new(o, "memlock_soft", rl.rlim_cur == RLIM_INFINITY ? json_string("unlimited")
										      : json_integer((json_int_t)rl.rlim_cur));
		json_object_set_new(o, "memlock_hard", rl.rlim_max == RLIM_INFINITY ? json_string("unlimited")
										     : json_integer((json_int_t)rl.rlim_max));
	}
	return o;
}

json_t *fw_sev_probe_live(void)
{
	json_t *o = json_object();
	json_object_set_new(o, "format", json_string("fwlens-sev-probe"));
	json_object_set_new(o, "platform", platform_status("/dev/sev"));
	json_object_set_new(o, "msr", msrs("/dev/cpu/0/msr"));
	json_object_set_new(o, "hwcr", hwcr_all());
	json_object_set_new(o, "smm", fw_smm_ranges_probe());
	json_object_set_new(o, "cpuid_8000001f", cpuid_sev());
	json_object_set_new(o, "access", devices_and_limits());
	return o;
}

bool fw_sev_cpuid_facts(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx, struct fw_sev_cpuid *out)
{
	memset(out, 0, sizeof(*out));
	out->sme = eax & 1;
	out->sev = eax >> 1 & 1;
	out->sev_es = eax >> 3 & 1;
	out->snp = eax >> 4 & 1;
	out->vmpl = eax >> 5 & 1;
	out->c_bit = ebx & 0x3F;
	out->phys_addr_reduction = ebx >> 6 & 0x3F;
	out->vmpls = ebx >> 12 & 0xF;
	out->encrypted_guests = ecx;
	out->min_sev_asid = edx;
	return eax != 0;
}

bool fw_snp_tcb_decode(unsigned family, uint64_t tcb, struct fw_snp_tcb *out)
{
	memset(out, 0, sizeof(*out));
	out->raw = tcb;
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(tcb >> (8 * i));
	if (family == 0x19) { /* Milan, Genoa: BL, TEE, 4 reserved, SNP, microcode */
		out->layout = "Milan/Genoa";
		out->boot_loader = b[0], out->tee = b[1], out->snp = b[6], out->microcode = b[7];
		return true;
	}
	if (family == 0x1A) { /* Turin: FMC, BL, TEE, SNP, 3 reserved, microcode */
		out->layout = "Turin";
		out->has_fmc = true;
		out->fmc = b[0], out->boot_loader = b[1], out->tee = b[2], out->snp = b[3], out->microcode = b[7];
		return true;
	}
	return false;
}
