/* The SEV platform state of the running machine, read the way `snphost ok` looks at it: the PSP's
 * SEV and SNP platform status through /dev/sev (SEV_ISSUE_CMD, include/uapi/linux/psp-sev.h),
 * SYSCFG and the RMP base/end MSRs through /dev/cpu/0/msr (arch/x86/include/asm/msr-index.h).
 * Read-only: only status commands are issued and MSRs are only read. Each probe records what it
 * read, or that it was not read and why (not root, no /dev/sev, msr module not loaded). */
#include "sev-probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

static json_t *not_read(const char *what, const char *why)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_false());
	json_object_set_new(o, "why", json_string(why));
	json_object_set_new(o, "source", json_string(what));
	return o;
}

static json_t *hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%llx", (unsigned long long)v);
	return json_string(b);
}

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
		json_object_set_new(o, "sev", not_read(dev, why));
		json_object_set_new(o, "snp", not_read(dev, why));
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
		json_object_set_new(s, "flags", hex(fw_le32(page + 3)));
		json_object_set_new(s, "build", json_integer(page[7]));
		json_object_set_new(s, "guest_count", json_integer(fw_le32(page + 8)));
		json_object_set_new(o, "sev", s);
	} else {
		snprintf(why, sizeof(why), "SEV_PLATFORM_STATUS: %s (firmware error 0x%x)", strerror(err), fwerr);
		json_object_set_new(o, "sev", not_read(dev, why));
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
		json_object_set_new(s, "build", json_integer(fw_le32(page + 4)));
		json_object_set_new(s, "guest_count", json_integer(fw_le32(page + 12)));
		json_object_set_new(s, "current_tcb", hex(fw_le64(page + 16)));
		json_object_set_new(s, "reported_tcb", hex(fw_le64(page + 24)));
		json_object_set_new(o, "snp", s);
	} else {
		snprintf(why, sizeof(why), "SNP_PLATFORM_STATUS: %s (firmware error 0x%x)", strerror(err), fwerr);
		json_object_set_new(o, "snp", not_read(dev, why));
	}
	close(fd);
	return o;
}

static json_t *msrs(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		char why[160];
		snprintf(why, sizeof(why), "%s: %s%s", dev, strerror(errno),
			 errno == ENOENT ? " (the msr module is not loaded)" : "");
		return not_read(dev, why);
	}
	static const struct {
		const char *name;
		uint32_t msr;
	} regs[] = {{"syscfg", MSR_SYSCFG}, {"rmp_base", MSR_RMP_BASE}, {"rmp_end", MSR_RMP_END}};
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string(dev));
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		uint64_t v;
		if (pread(fd, &v, sizeof(v), regs[i].msr) == (ssize_t)sizeof(v))
			json_object_set_new(o, regs[i].name, hex(v));
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

json_t *fw_sev_probe_live(void)
{
	json_t *o = json_object();
	json_object_set_new(o, "format", json_string("fwlens-sev-probe"));
	json_object_set_new(o, "platform", platform_status("/dev/sev"));
	json_object_set_new(o, "msr", msrs("/dev/cpu/0/msr"));
	return o;
}
