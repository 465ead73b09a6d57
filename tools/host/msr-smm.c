/* SMM_ADDR and SMM_MASK of every CPU (see msr-smm.h). Kept apart from sev-probe.c: it is a
 * firmware-protection fact, not an SEV one, and only the probe's document is shared. */
#include "msr-smm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TSEG_FIELD 0x0000FFFFFFFE0000ull /* bits 47:17 of both MSRs */

void fw_smm_ranges_decode(uint64_t smm_addr, uint64_t smm_mask, struct fw_smm_ranges *out)
{
	memset(out, 0, sizeof(*out));
	out->tseg_base = smm_addr & TSEG_FIELD;
	/* the mask's set bits are the address bits that must match the base: the range is the
	 * complement of the mask within bits 47:17, plus the 128 KiB granule */
	out->tseg_size = (~smm_mask & TSEG_FIELD) + 0x20000ull;
	out->tseg_defined = (smm_mask & TSEG_FIELD) != 0;
	out->avalid = smm_mask & 1;
	out->tvalid = smm_mask >> 1 & 1;
	out->aclose = smm_mask >> 2 & 1;
	out->tclose = smm_mask >> 3 & 1;
	out->am_type_dram = (unsigned)(smm_mask >> 8 & 7);
	out->tm_type_dram = (unsigned)(smm_mask >> 12 & 7);
}

const char *fw_smm_memory_type(unsigned type)
{
	static const char *const names[8] = {"UC", "WC", "reserved", "reserved", "WT", "WP", "WB", "reserved"};
	return names[type & 7];
}

static json_t *hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIx64, v);
	return json_string(b);
}

static json_t *not_read(const char *source, const char *why)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_false());
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "why", json_string(why));
	return o;
}

json_t *fw_smm_ranges_probe(void)
{
	const char *source = "/dev/cpu/N/msr MSR C001_0112 (SMM_ADDR), C001_0113 (SMM_MASK)";
	DIR *d = opendir("/dev/cpu");
	if (!d)
		return not_read(source, "/dev/cpu: no such folder (the msr module is not loaded)");
	json_t *cpus = json_array();
	size_t tried = 0;
	char why[160] = "";
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		unsigned long n = strtoul(e->d_name, &end, 10);
		if (*end || end == e->d_name)
			continue;
		tried++;
		char dev[64];
		snprintf(dev, sizeof(dev), "/dev/cpu/%lu/msr", n);
		int fd = open(dev, O_RDONLY | O_CLOEXEC);
		uint64_t addr, mask;
		if (fd < 0 || pread(fd, &addr, sizeof(addr), FW_MSR_SMM_ADDR) != (ssize_t)sizeof(addr) ||
		    pread(fd, &mask, sizeof(mask), FW_MSR_SMM_MASK) != (ssize_t)sizeof(mask)) {
			snprintf(why, sizeof(why), "%s: %s%s", dev, strerror(errno),
				 errno == ENOENT ? " (the msr module is not loaded)" : "");
			if (fd >= 0)
				close(fd);
			continue;
		}
		close(fd);
		json_t *c = json_object();
		json_object_set_new(c, "cpu", json_integer((json_int_t)n));
		json_object_set_new(c, "smm_addr", hex(addr));
		json_object_set_new(c, "smm_mask", hex(mask));
		json_array_append_new(cpus, c);
	}
	closedir(d);
	if (!json_array_size(cpus)) {
		json_decref(cpus);
		return not_read(source, why[0] ? why : "no CPU msr nodes");
	}
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "cpus_listed", json_integer((json_int_t)tried));
	json_object_set_new(o, "cpus", cpus);
	return o;
}
