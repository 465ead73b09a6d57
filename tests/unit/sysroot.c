#include "sysroot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parsers/view.h"

char *fw_sysroot_new(char *buf)
{
	return mkdtemp(buf);
}

void fw_sysroot_remove(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static void make_parents(const char *dir, const char *rel)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
}

void fw_sysroot_file(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[4096];
	make_parents(dir, rel);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

void fw_sysroot_text(const char *dir, const char *rel, const char *text)
{
	fw_sysroot_file(dir, rel, text, strlen(text));
}

void fw_sysroot_link(const char *dir, const char *rel, const char *target)
{
	char path[4096];
	make_parents(dir, rel);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	unlink(path);
	if (symlink(target, path) != 0)
		perror("symlink");
}

void fw_sysroot_cfg_bridge(uint8_t *c, uint16_t vendor, uint16_t device, unsigned port_type, uint8_t sec, uint8_t sub,
			   uint16_t acs_cap, uint16_t acs_ctl)
{
	memset(c, 0, 4096);
	fw_put_le16(c, vendor);
	fw_put_le16(c + 2, device);
	fw_put_le16(c + 6, 0x0010);
	c[0x0A] = 0x04, c[0x0B] = 0x06;
	c[0x0E] = 0x01;
	c[0x19] = sec, c[0x1A] = sub;
	c[0x34] = 0x58;
	c[0x58] = 0x10;
	fw_put_le16(c + 0x5A, (uint16_t)(0x0002 | (port_type << 4)));
	fw_put_le32(c + 0x64, 0x00000105);
	fw_put_le16(c + 0x6A, 0x0105);
	if (acs_cap) {
		fw_put_le32(c + 0x100, 0x0001000D);
		fw_put_le16(c + 0x104, acs_cap);
		fw_put_le16(c + 0x106, acs_ctl);
	}
}

void fw_sysroot_cfg_gpu(uint8_t *c, uint16_t vendor, uint16_t device, unsigned speed, unsigned width)
{
	memset(c, 0, 4096);
	fw_put_le16(c, vendor);
	fw_put_le16(c + 2, device);
	fw_put_le16(c + 6, 0x0010);
	c[0x0A] = 0x02, c[0x0B] = 0x03; /* 3D controller */
	c[0x34] = 0x60;
	c[0x60] = 0x10;
	fw_put_le16(c + 0x62, 0x0002); /* endpoint */
	fw_put_le32(c + 0x6C, 0x00000105);
	fw_put_le16(c + 0x72, (uint16_t)(speed | (width << 4)));
	fw_put_le32(c + 0x100, 0x00000000);
}

void fw_sysroot_pci(const char *dir, const char *path, const uint8_t *cfg, const char *resource, int numa,
		    const char *driver, int group)
{
	char rel[1024], target[1024], num[16];
	const char *bdf = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(rel, sizeof(rel), "sys/devices/%s/config", path);
	fw_sysroot_file(dir, rel, cfg, 4096);
	if (resource) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/resource", path);
		fw_sysroot_text(dir, rel, resource);
	}
	snprintf(rel, sizeof(rel), "sys/devices/%s/numa_node", path);
	snprintf(num, sizeof(num), "%d\n", numa);
	fw_sysroot_text(dir, rel, num);
	snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s", bdf);
	snprintf(target, sizeof(target), "../../../devices/%s", path);
	fw_sysroot_link(dir, rel, target);
	if (driver) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/driver", path);
		snprintf(target, sizeof(target), "/sys/bus/pci/drivers/%s", driver);
		fw_sysroot_link(dir, rel, target);
	}
	if (group >= 0) {
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/%d/devices/%s", group, bdf);
		snprintf(target, sizeof(target), "/sys/devices/%s", path);
		fw_sysroot_link(dir, rel, target);
		snprintf(rel, sizeof(rel), "sys/devices/%s/iommu_group", path);
		snprintf(target, sizeof(target), "/sys/kernel/iommu_groups/%d", group);
		fw_sysroot_link(dir, rel, target);
	}
}
