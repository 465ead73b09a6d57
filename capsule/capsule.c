/* Capsule headers: recognise EFI, FMP and AMI Aptio capsules and find their payload. */
#include "capsule.h"

#include "aptio.h"

bool fw_capsule_probe(const struct fw_view *v)
{
	struct fw_guid g;
	if (!fw_rd_guid(v, 0, &g, NULL))
		return false;
	return fw_guid_eq(&g, &fw_guid_capsule_aptio_signed) || fw_guid_eq(&g, &fw_guid_capsule_aptio_unsigned) ||
	       fw_guid_eq(&g, &fw_guid_capsule_efi) || fw_guid_eq(&g, &fw_guid_capsule_fmp);
}

struct fw_node *fw_capsule_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v,
				 struct fw_view *payload, struct fw_error *err)
{
	struct fw_guid g;
	if (!fw_layout_check(&fw_efi_capsule_layout, v, 0, err))
		return NULL;
	fw_layout_get_guid(&fw_efi_capsule_layout, v, 0, CAP_GUID, &g);
	bool aptio = fw_guid_eq(&g, &fw_guid_capsule_aptio_signed) || fw_guid_eq(&g, &fw_guid_capsule_aptio_unsigned);
	const struct fw_layout *l = aptio ? &fw_aptio_capsule_layout : &fw_efi_capsule_layout;
	if (!fw_layout_check(l, v, 0, err))
		return NULL;
	uint64_t header = aptio ? fw_layout_get(l, v, 0, CAP_ROM_IMAGE_OFFSET) : fw_layout_get(l, v, 0, CAP_HEADER_SIZE);
	uint64_t image_size = fw_layout_get(l, v, 0, CAP_IMAGE_SIZE);
	if (header == 0 || header > v->len) {
		fw_error_set(err, FW_E_INVALID, "capsule header at 0x%llx: header size 0x%llx does not fit the file (0x%zx)",
			     (unsigned long long)v->base, (unsigned long long)header, v->len);
		return NULL;
	}
	const char *type = fw_guid_eq(&g, &fw_guid_capsule_aptio_signed)     ? "Aptio signed"
			   : fw_guid_eq(&g, &fw_guid_capsule_aptio_unsigned) ? "Aptio unsigned"
			   : fw_guid_eq(&g, &fw_guid_capsule_fmp)            ? "FMP"
									     : "UEFI 2.0";
	struct fw_node *n = fw_node_add(t, parent, FW_NODE_CAPSULE, type, v, err);
	if (!n)
		return NULL;
	fw_node_set_guid(n, &g);
	n->name = fw_guid_name(&g);
	n->header_size = (uint32_t)header;
	fw_layout_emit(t, n, l, v, 0);
	size_t body_len = v->len - (size_t)header;
	if (image_size > header && image_size < v->len)
		body_len = (size_t)(image_size - header);
	else if (image_size != v->len)
		fw_node_diag(t, n, FW_DIAG_WARN, v->base, "CapsuleImageSize 0x%llx differs from the file size 0x%zx",
			     (unsigned long long)image_size, v->len);
	fw_rd_sub(v, (size_t)header, body_len, payload, NULL);
	n->body = *payload;
	return n;
}
