/* Whose readiness a verdict touches: the SNP host itself, the GPUs the host drives, the GPUs given
 * to VMs. Checks about GPUs name the role by the owner of the GPUs they blame; the others take it
 * from their profiles (sev-snp-host: the SNP host, p2p: host GPUs, vfio: VMs' GPUs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

unsigned fw_doctor_gpu_affects(const struct fw_pci_device *d)
{
	return d && d->owner && strncmp(d->owner, "VM ", 3) == 0 ? FW_AFFECTS_VM_GPUS : FW_AFFECTS_HOST_GPUS;
}

void fw_doctor_default_affects(struct fw_check_result *r)
{
	if (r->affects)
		return;
	if (r->profiles & FW_PROFILE_SNP)
		r->affects |= FW_AFFECTS_SNP_HOST;
	if (r->profiles & FW_PROFILE_P2P)
		r->affects |= FW_AFFECTS_HOST_GPUS;
	if (r->profiles & FW_PROFILE_VFIO)
		r->affects |= FW_AFFECTS_VM_GPUS;
}

static const struct {
	unsigned bit;
	const char *role, *title;
} roles[] = {
	{FW_AFFECTS_SNP_HOST, "snp-host", "SNP host"},
	{FW_AFFECTS_VM_GPUS, "vm-gpus", "GPUs given to VMs (the SNP guest's)"},
	{FW_AFFECTS_HOST_GPUS, "host-gpus", "host GPUs"},
};

/* The role's status and the checks that set it. */
static const char *role_status(const struct fw_doctor_report *r, unsigned bit, json_t *ids)
{
	size_t fail = 0, pending = 0, warn = 0, judged = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < r->count; i++) {
			const struct fw_check_result *c = &r->results[i];
			if (!(c->affects & bit) || c->status == FW_CHECK_SKIP)
				continue;
			judged += pass == 0;
			enum fw_check_status want = fail ? FW_CHECK_FAIL : pending ? FW_CHECK_PENDING : FW_CHECK_WARN;
			if (pass == 0) {
				fail += c->status == FW_CHECK_FAIL;
				pending += c->status == FW_CHECK_PENDING;
				warn += c->status == FW_CHECK_WARN;
			} else if (c->status == want) {
				json_array_append_new(ids, json_string(c->id));
			}
		}
	return fail ? "not ready" : pending ? "pending" : warn ? "ready with warnings" : judged ? "ready" : "not known";
}

json_t *fw_doctor_readiness_json(const struct fw_doctor_report *r)
{
	json_t *arr = json_array();
	if (r->guest) {
		/* inside a VM the host's roles are not judged: one role, the guest itself */
		json_t *ids = json_array(), *o = json_object();
		const char *st = role_status(r, FW_AFFECTS_SNP_HOST | FW_AFFECTS_HOST_GPUS | FW_AFFECTS_VM_GPUS, ids);
		json_object_set_new(o, "role", json_string("guest"));
		json_object_set_new(o, "title", json_string("this guest"));
		json_object_set_new(o, "status", json_string(st));
		json_object_set_new(o, "checks", ids);
		json_array_append_new(arr, o);
		return arr;
	}
	for (size_t k = 0; k < sizeof(roles) / sizeof(roles[0]); k++) {
		json_t *ids = json_array(), *o = json_object();
		const char *st = role_status(r, roles[k].bit, ids);
		json_object_set_new(o, "role", json_string(roles[k].role));
		json_object_set_new(o, "title", json_string(roles[k].title));
		json_object_set_new(o, "status", json_string(st));
		json_object_set_new(o, "checks", ids);
		json_array_append_new(arr, o);
	}
	return arr;
}

char *fw_doctor_readiness_line(const struct fw_doctor_report *r)
{
	json_t *arr = fw_doctor_readiness_json(r), *o;
	char *out = fw_xstrdup("");
	size_t i;
	json_array_foreach(arr, i, o)
	{
		json_t *ids = json_object_get(o, "checks"), *id;
		char list[512] = "";
		size_t k;
		json_array_foreach(ids, k, id)
		{
			size_t used = strlen(list);
			snprintf(list + used, sizeof(list) - used, "%s%s", k ? ", " : "", json_string_value(id));
		}
		char *next = fw_xasprintf("%s%s%s: %s%s%s%s", out, i ? "; " : "", json_string_value(json_object_get(o, "title")),
					  json_string_value(json_object_get(o, "status")), list[0] ? " (" : "", list,
					  list[0] ? ")" : "");
		free(out);
		out = next;
	}
	json_decref(arr);
	return out;
}
