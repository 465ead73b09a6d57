/* `fwlens acpi topo` writers: JSON and text. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "acpi-write.h"
#include "output-text.h"

static json_t *opt_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *bdf_json(uint16_t seg, uint16_t devid)
{
	char buf[16];
	return json_string(fw_acpi_bdf_str(seg, devid, buf));
}

static json_t *initiator_json(const struct fw_srat_entry *e)
{
	json_t *j = json_object();
	json_object_set_new(j, "type", json_string(fw_srat_type_name(e->type)));
	json_object_set_new(j, "proximity_domain", json_integer(e->proximity_domain));
	json_object_set_new(j, "enabled", json_boolean(e->enabled));
	if (e->handle_type == FW_SRAT_GI_HANDLE_PCI) {
		json_object_set_new(j, "device_handle_type", json_string("PCI"));
		json_object_set_new(j, "bdf", bdf_json(e->segment, e->bdf));
	} else {
		json_object_set_new(j, "device_handle_type", json_string("ACPI"));
		json_object_set_new(j, "hid", json_string(e->hid));
		json_object_set_new(j, "uid", json_integer(e->uid));
	}
	return j;
}

static json_t *pci_json(const struct fw_topo_pci_device *d)
{
	json_t *j = json_object();
	json_object_set_new(j, "bdf", json_string(d->bdf));
	json_object_set_new(j, "vendor", opt_str(d->vendor));
	json_object_set_new(j, "device", opt_str(d->device));
	json_object_set_new(j, "class", opt_str(d->class_code));
	json_object_set_new(j, "numa_node", json_integer(d->numa_node));
	json_object_set_new(j, "iommu_group", opt_str(d->iommu_group));
	json_object_set_new(j, "driver", opt_str(d->driver));
	return j;
}

static json_t *ids_json(const struct fw_dsl_device *d)
{
	json_t *a = json_array();
	for (size_t i = 0; i < d->ncids; i++)
		json_array_append_new(a, json_string(d->cids[i]));
	return a;
}

json_t *fw_acpi_json_topo(const struct fw_acpi_topo *t)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "dsl_tables", json_integer((json_int_t)t->dsl_tables));
	json_t *bridges = json_array();
	for (size_t i = 0; i < t->nbridges; i++) {
		const struct fw_topo_bridge *b = &t->bridges[i];
		json_t *j = json_object();
		json_object_set_new(j, "path", json_string(b->dsl.path));
		json_object_set_new(j, "hid", opt_str(b->dsl.hid));
		json_object_set_new(j, "cid", ids_json(&b->dsl));
		json_object_set_new(j, "uid", opt_str(b->dsl.uid));
		json_object_set_new(j, "table", opt_str(b->dsl.table));
		json_object_set_new(j, "present", json_boolean(b->present));
		json_object_set_new(j, "segment", json_integer(b->segment));
		json_object_set_new(j, "seg_source", opt_str(b->dsl.has_seg ? b->dsl.seg_how : NULL));
		json_object_set_new(j, "bbn", b->dsl.has_bbn ? json_integer((json_int_t)b->dsl.bbn) : json_null());
		json_object_set_new(j, "bbn_source", opt_str(b->dsl.has_bbn ? b->dsl.bbn_how : NULL));
		json_object_set_new(j, "bus_first", b->bus_known ? json_integer(b->bus_first) : json_null());
		json_object_set_new(j, "bus_last", b->bus_known ? json_integer(b->bus_last) : json_null());
		json_object_set_new(j, "bus_last_certain", json_boolean(b->bus_known && b->bus_last_certain));
		json_object_set_new(j, "bus_source", opt_str(b->bus_known ? b->bus_source : NULL));
		json_object_set_new(j, "proximity_domain", b->pxm_known ? json_integer(b->pxm) : json_null());
		json_object_set_new(j, "pxm_source", opt_str(b->pxm_known ? b->pxm_source : NULL));
		json_object_set_new(j, "sta", b->dsl.has_sta ? json_integer((json_int_t)b->dsl.sta) : json_null());
		if (b->iommu) {
			json_t *io = json_object();
			json_object_set_new(io, "index", json_integer(b->iommu->iommu_index));
			json_object_set_new(io, "bdf", bdf_json(b->iommu->segment, b->iommu->device_id));
			json_object_set_new(io, "base_address", fw_json_hex(b->iommu->base_address));
			json_object_set_new(io, "ivhd_type", json_integer(b->iommu->type));
			json_object_set_new(io, "covered_ids", json_integer((json_int_t)b->iommu_devices));
			json_object_set_new(j, "iommu", io);
		} else {
			json_object_set_new(j, "iommu", json_null());
		}
		json_t *gi = json_array();
		for (size_t k = 0; k < b->ninitiators; k++)
			json_array_append_new(gi, initiator_json(b->initiators[k]));
		json_object_set_new(j, "generic_initiators", gi);
		if (t->have_host) {
			json_t *devs = json_array();
			for (size_t k = 0; k < b->ndevices; k++)
				json_array_append_new(devs, pci_json(&b->devices[k]));
			json_object_set_new(j, "devices", devs);
		}
		json_array_append_new(bridges, j);
	}
	json_object_set_new(doc, "root_bridges", bridges);
	json_t *doms = json_array();
	for (size_t i = 0; i < t->ndomains; i++) {
		const struct fw_topo_domain *d = &t->domains[i];
		json_t *j = json_object();
		json_object_set_new(j, "proximity_domain", json_integer(d->pxm));
		json_object_set_new(j, "in_srat", json_boolean(t->srat != NULL));
		json_object_set_new(j, "cpus", json_integer((json_int_t)d->cpus));
		json_object_set_new(j, "memory_bytes", json_integer((json_int_t)d->memory));
		json_object_set_new(j, "generic_initiators", json_integer((json_int_t)d->initiators));
		json_object_set_new(j, "root_bridges", json_integer((json_int_t)d->bridges));
		json_object_set_new(j, "socket", d->socket >= 0 ? json_integer(d->socket) : json_null());
		json_object_set_new(j, "socket_source", d->socket_source ? json_string(d->socket_source) : json_null());
		json_array_append_new(doms, j);
	}
	json_object_set_new(doc, "proximity_domains", doms);
	json_t *ioms = json_array();
	for (size_t i = 0; t->ivrs && i < t->ivrs->nblocks; i++) {
		const struct fw_ivrs_block *b = &t->ivrs->blocks[i];
		if (!b->linux_uses)
			continue;
		json_t *j = json_object();
		json_object_set_new(j, "index", json_integer(b->iommu_index));
		json_object_set_new(j, "bdf", bdf_json(b->segment, b->device_id));
		json_object_set_new(j, "base_address", fw_json_hex(b->base_address));
		json_object_set_new(j, "ivhd_type", json_integer(b->type));
		json_t *br = json_array();
		for (size_t k = 0; k < t->nbridges; k++)
			if (t->bridges[k].iommu == b)
				json_array_append_new(br, json_string(t->bridges[k].dsl.path));
		json_object_set_new(j, "root_bridges", br);
		json_array_append_new(ioms, j);
	}
	json_object_set_new(doc, "iommus", ioms);
	json_t *gis = json_array();
	for (size_t i = 0; i < t->ninitiators; i++) {
		json_t *j = initiator_json(t->initiators[i]);
		json_object_set_new(j, "root_bridge", t->initiator_bridge[i] >= 0 ? json_string(t->bridges[t->initiator_bridge[i]].dsl.path)
										   : json_null());
		json_array_append_new(gis, j);
	}
	json_object_set_new(doc, "generic_initiators", gis);
	json_t *px = json_array();
	for (size_t i = 0; i < t->pxm_devices.n; i++) {
		const struct fw_dsl_device *d = &t->pxm_devices.v[i];
		json_t *j = json_object();
		json_object_set_new(j, "path", json_string(d->path));
		json_object_set_new(j, "hid", opt_str(d->hid));
		json_object_set_new(j, "proximity_domain", json_integer((json_int_t)d->pxm));
		json_object_set_new(j, "pxm_source", opt_str(d->pxm_how));
		json_array_append_new(px, j);
	}
	json_object_set_new(doc, "pxm_devices", px);
	if (t->have_host) {
		json_t *un = json_array();
		for (size_t i = 0; i < t->nunplaced; i++)
			json_array_append_new(un, pci_json(&t->unplaced[i]));
		json_object_set_new(doc, "devices_without_bridge", un);
	}
	json_object_set_new(doc, "diagnostics", fw_json_diags(t->diags, false));
	return doc;
}

void fw_acpi_text_topo(struct fw_cli *cli, const struct fw_acpi_topo *t)
{
	FILE *f = fw_cli_out(cli);
	const char *bold = fw_cli_color(cli, "bold"), *reset = fw_cli_color(cli, "reset");
	char a[16];
	fprintf(f, "%sPCI root bridges%s (%zu, from %zu AML table%s)\n", bold, reset, t->nbridges, t->dsl_tables,
		t->dsl_tables == 1 ? "" : "s");
	for (size_t i = 0; i < t->nbridges; i++) {
		const struct fw_topo_bridge *b = &t->bridges[i];
		char uid[80];
		if (!b->dsl.uid)
			snprintf(uid, sizeof(uid), "-");
		else if (b->dsl.uid_is_string)
			snprintf(uid, sizeof(uid), "\"%s\"", b->dsl.uid);
		else
			snprintf(uid, sizeof(uid), "%s", b->dsl.uid);
		fputs("  ", f);
		fw_text_pad(f, b->dsl.path, 14);
		fputc(' ', f);
		fw_text_pad(f, b->dsl.hid ? b->dsl.hid : "-", 8);
		fputs(" UID ", f);
		fw_text_pad(f, uid, 6);
		fprintf(f, " seg %04x ", b->segment);
		if (!b->present)
			fprintf(f, "absent       ");
		else if (b->bus_known)
			fprintf(f, "buses %02x-%02x%s ", b->bus_first, b->bus_last, b->bus_last_certain ? " " : "?");
		else
			fprintf(f, "buses ?      ");
		if (b->pxm_known)
			fprintf(f, "PXM %-3u", b->pxm);
		else
			fprintf(f, "PXM -  ");
		if (b->iommu)
			fprintf(f, " IOMMU %d (%s)", b->iommu->iommu_index, fw_acpi_bdf_str(b->iommu->segment, b->iommu->device_id, a));
		fputc('\n', f);
		fprintf(f, "      %s", b->dsl.table ? b->dsl.table : "");
		if (b->bus_known)
			fprintf(f, "; buses from %s", b->bus_source);
		if (b->dsl.has_bbn)
			fprintf(f, "; _BBN 0x%02" PRIx64 " (%s)", b->dsl.bbn, b->dsl.bbn_how);
		if (b->pxm_known)
			fprintf(f, "; _PXM %u (%s)", b->pxm, b->pxm_source);
		if (b->dsl.has_sta)
			fprintf(f, "; _STA 0x%02" PRIx64, b->dsl.sta);
		fputc('\n', f);
		for (size_t k = 0; k < b->ninitiators; k++) {
			const struct fw_srat_entry *e = b->initiators[k];
			fprintf(f, "      %s in domain %u: ", e->type == FW_SRAT_GENERIC_PORT ? "generic port" : "generic initiator",
				e->proximity_domain);
			if (e->handle_type == FW_SRAT_GI_HANDLE_PCI)
				fprintf(f, "%s\n", fw_acpi_bdf_str(e->segment, e->bdf, a));
			else
				fprintf(f, "%s UID %u\n", e->hid, e->uid);
		}
		for (size_t k = 0; k < b->ndevices; k++) {
			const struct fw_topo_pci_device *d = &b->devices[k];
			fprintf(f, "      %s  %s:%s class %s  node %d", d->bdf, d->vendor ? d->vendor : "?", d->device ? d->device : "?",
				d->class_code ? d->class_code : "?", d->numa_node);
			if (d->iommu_group)
				fprintf(f, "  group %s", d->iommu_group);
			if (d->driver)
				fprintf(f, "  %s", d->driver);
			fputc('\n', f);
		}
	}
	fprintf(f, "\n%sproximity domains%s%s\n", bold, reset, t->srat ? " (SRAT)" : " (no SRAT: from _PXM only)");
	for (size_t i = 0; i < t->ndomains; i++) {
		const struct fw_topo_domain *d = &t->domains[i];
		fprintf(f, "  %-4u %4zu CPUs  %8" PRIu64 " MiB  %zu root bridge%s", d->pxm, d->cpus, d->memory >> 20, d->bridges,
			d->bridges == 1 ? "" : "s");
		if (d->initiators)
			fprintf(f, "  %zu generic initiator%s", d->initiators, d->initiators == 1 ? "" : "s");
		if (d->socket >= 0)
			fprintf(f, "  socket %d (%s)", d->socket, d->socket_from_tables ? "PPTT" : "sysfs");
		fputc('\n', f);
	}
	if (t->ivrs) {
		fprintf(f, "\n%sIOMMUs%s (IVRS, the IVHD %02xh blocks Linux uses)\n", bold, reset, t->ivrs->linux_type);
		for (size_t i = 0; i < t->ivrs->nblocks; i++) {
			const struct fw_ivrs_block *b = &t->ivrs->blocks[i];
			if (!b->linux_uses)
				continue;
			fprintf(f, "  %d  %s  base 0x%" PRIx64 " ", b->iommu_index, fw_acpi_bdf_str(b->segment, b->device_id, a), b->base_address);
			size_t nb = 0;
			for (size_t k = 0; k < t->nbridges; k++)
				if (t->bridges[k].iommu == b)
					fprintf(f, "%s%s", nb++ ? ", " : " for ", t->bridges[k].dsl.path);
			fputc('\n', f);
		}
	}
	if (t->ninitiators) {
		fprintf(f, "\n%sgeneric initiators and ports%s (SRAT)\n", bold, reset);
		for (size_t i = 0; i < t->ninitiators; i++) {
			const struct fw_srat_entry *e = t->initiators[i];
			fprintf(f, "  %-17s domain %-3u ", fw_srat_type_name(e->type), e->proximity_domain);
			if (e->handle_type == FW_SRAT_GI_HANDLE_PCI)
				fprintf(f, "%s", fw_acpi_bdf_str(e->segment, e->bdf, a));
			else
				fprintf(f, "%s UID %u", e->hid, e->uid);
			fprintf(f, "%s%s\n", t->initiator_bridge[i] >= 0 ? "  under " : "",
				t->initiator_bridge[i] >= 0 ? t->bridges[t->initiator_bridge[i]].dsl.path : "");
		}
	}
	if (t->pxm_devices.n) {
		fprintf(f, "\n%sother devices with _PXM%s\n", bold, reset);
		for (size_t i = 0; i < t->pxm_devices.n; i++) {
			const struct fw_dsl_device *d = &t->pxm_devices.v[i];
			fputs("  ", f);
			fw_text_pad(f, d->path, 24);
			fputc(' ', f);
			fw_text_pad(f, d->hid ? d->hid : "-", 9);
			fprintf(f, " PXM %" PRIu64 " (%s)\n", d->pxm, d->pxm_how);
		}
	}
	if (t->nunplaced) {
		fprintf(f, "\n%sPCI devices under no known root bridge%s\n", bold, reset);
		for (size_t i = 0; i < t->nunplaced; i++)
			fprintf(f, "  %s  %s:%s  node %d\n", t->unplaced[i].bdf, t->unplaced[i].vendor ? t->unplaced[i].vendor : "?",
				t->unplaced[i].device ? t->unplaced[i].device : "?", t->unplaced[i].numa_node);
	}
	if (t->diags) {
		fprintf(f, "\n%snotes%s\n", bold, reset);
		for (const struct fw_diag *d = t->diags; d; d = d->next)
			fprintf(f, "  %s: %s\n", fw_diag_severity_name(d->severity), d->msg);
	}
}
