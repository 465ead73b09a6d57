/* CRAT, AMD's Component Resource Attribute Table: the HSA view of the machine's NUMA topology
 * (compute units, memory, caches, TLBs and the links between proximity domains), the same
 * topology SRAT/SLIT give from the ACPI side. ACPICA does not decode it; the layouts are those
 * the Linux amdkfd driver reads (drivers/gpu/drm/amd/amdkfd/kfd_crat.h, subtypes 0-5: compute
 * unit, memory, cache, TLB, CCompute, I/O link; there is no other subtype, an FPU included). A
 * cache's, TLB's or CCompute's sibling map has one bit per processor (bit n: processor n). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "acpi/fields.h"

static const struct fw_field crat_fields[] = {
	{"TotalEntries", FW_FT_U32, 36, 0, 0, NULL},
	{"NumDomains", FW_FT_U16, 40, 0, 0, NULL},
};
static const struct fw_layout crat = FW_LAYOUT("CRAT", 48, crat_fields);

#define SUB_HEAD(flags) {"Type", FW_FT_U8, 0, 0, 0, NULL}, {"Length", FW_FT_U8, 1, 0, 0, NULL}, \
		{"Flags", FW_FT_U32, 4, 0, FW_FF_BITS, .names = &(flags)}

static const struct fw_bitfield cu_flag_bits[] = {
	{"Enabled", 0, 1, NULL}, {"HotPluggable", 1, 1, NULL}, {"CpuPresent", 2, 1, NULL}, {"GpuPresent", 3, 1, NULL},
	{"IommuPresent", 4, 1, NULL},
};
static const struct fw_bitfields cu_flags = FW_BITFIELDS(cu_flag_bits);
static const struct fw_field cu_fields[] = {
	SUB_HEAD(cu_flags),
	{"ProximityDomain", FW_FT_U32, 8, 0, 0, NULL},
	{"ProcessorIdLow", FW_FT_U32, 12, 0, 0, NULL},
	{"NumCpuCores", FW_FT_U16, 16, 0, 0, NULL},
	{"NumSimdCores", FW_FT_U16, 18, 0, 0, NULL},
	{"MaxWavesSimd", FW_FT_U16, 20, 0, 0, NULL},
	{"IoCount", FW_FT_U16, 22, 0, 0, NULL},
	{"HsaCapability", FW_FT_U16, 24, 0, FW_FF_HEX, NULL},
	{"LdsSizeKiB", FW_FT_U16, 26, 0, 0, NULL},
	{"WaveFrontSize", FW_FT_U8, 28, 0, 0, NULL},
	{"NumBanks", FW_FT_U8, 29, 0, 0, NULL},
	{"MicroEngineId", FW_FT_U16, 30, 0, 0, NULL},
	{"ArrayCount", FW_FT_U8, 32, 0, 0, NULL},
	{"NumCuPerArray", FW_FT_U8, 33, 0, 0, NULL},
	{"NumSimdPerCu", FW_FT_U8, 34, 0, 0, NULL},
	{"MaxSlotsScratchCu", FW_FT_U8, 35, 0, 0, NULL},
};
static const struct fw_layout cu = FW_LAYOUT("compute unit affinity", 40, cu_fields);

static const struct fw_bitfield memory_flag_bits[] = {{"Enabled", 0, 1, NULL}, {"HotPluggable", 1, 1, NULL}, {"NonVolatile", 2, 1, NULL}};
static const struct fw_bitfields memory_flags = FW_BITFIELDS(memory_flag_bits);
static const struct fw_field memory_fields[] = {
	SUB_HEAD(memory_flags),
	{"ProximityDomain", FW_FT_U32, 8, 0, 0, NULL},
	{"BaseAddress", FW_FT_U64, 12, 0, FW_FF_HEX, NULL}, /* low half, then high half */
	{"MemoryLength", FW_FT_U64, 20, 0, FW_FF_HEX, NULL},
	{"Width", FW_FT_U32, 28, 0, 0, NULL},
	{"VisibilityType", FW_FT_U8, 32, 0, 0, NULL},
};
static const struct fw_layout memory = FW_LAYOUT("memory affinity", 40, memory_fields);

static const struct fw_bitfield cache_flag_bits[] = {
	{"Enabled", 0, 1, NULL}, {"DataCache", 1, 1, NULL}, {"InstructionCache", 2, 1, NULL}, {"CpuCache", 3, 1, NULL},
	{"SimdCache", 4, 1, NULL},
};
static const struct fw_bitfields cache_flags = FW_BITFIELDS(cache_flag_bits);
static const struct fw_field cache_fields[] = {
	SUB_HEAD(cache_flags),
	{"ProcessorIdLow", FW_FT_U32, 8, 0, 0, NULL},
	{"SiblingMap", FW_FT_BYTES, 12, 32, 0, NULL},
	{"CacheSizeKiB", FW_FT_U32, 44, 0, 0, NULL},
	{"CacheLevel", FW_FT_U8, 48, 0, 0, NULL},
	{"LinesPerTag", FW_FT_U8, 49, 0, 0, NULL},
	{"CacheLineSize", FW_FT_U16, 50, 0, 0, NULL},
	{"Associativity", FW_FT_U8, 52, 0, 0, NULL},
	{"CacheProperties", FW_FT_U8, 53, 0, FW_FF_HEX, NULL},
	{"CacheLatency", FW_FT_U16, 54, 0, 0, NULL},
};
static const struct fw_layout cache = FW_LAYOUT("cache affinity", 64, cache_fields);

static const struct fw_bitfield tlb_flag_bits[] = {
	{"Enabled", 0, 1, NULL}, {"DataTlb", 1, 1, NULL}, {"InstructionTlb", 2, 1, NULL}, {"CpuTlb", 3, 1, NULL},
	{"SimdTlb", 4, 1, NULL},
};
static const struct fw_bitfields tlb_flags = FW_BITFIELDS(tlb_flag_bits);
static const struct fw_field tlb_fields[] = {
	SUB_HEAD(tlb_flags),
	{"ProcessorIdLow", FW_FT_U32, 8, 0, 0, NULL},
	{"SiblingMap", FW_FT_BYTES, 12, 32, 0, NULL},
	{"TlbLevel", FW_FT_U32, 44, 0, 0, NULL},
	{"DataTlbAssociativity2M", FW_FT_U8, 48, 0, 0, NULL},
	{"DataTlbSize2M", FW_FT_U8, 49, 0, 0, NULL},
	{"InstructionTlbAssociativity2M", FW_FT_U8, 50, 0, 0, NULL},
	{"InstructionTlbSize2M", FW_FT_U8, 51, 0, 0, NULL},
	{"DataTlbAssociativity4K", FW_FT_U8, 52, 0, 0, NULL},
	{"DataTlbSize4K", FW_FT_U8, 53, 0, 0, NULL},
	{"InstructionTlbAssociativity4K", FW_FT_U8, 54, 0, 0, NULL},
	{"InstructionTlbSize4K", FW_FT_U8, 55, 0, 0, NULL},
	{"DataTlbAssociativity1G", FW_FT_U8, 56, 0, 0, NULL},
	{"DataTlbSize1G", FW_FT_U8, 57, 0, 0, NULL},
	{"InstructionTlbAssociativity1G", FW_FT_U8, 58, 0, 0, NULL},
	{"InstructionTlbSize1G", FW_FT_U8, 59, 0, 0, NULL},
};
static const struct fw_layout tlb = FW_LAYOUT("TLB affinity", 64, tlb_fields);

static const struct fw_bitfield enabled_bits[] = {{"Enabled", 0, 1, NULL}};
static const struct fw_bitfields enabled = FW_BITFIELDS(enabled_bits);
static const struct fw_field ccompute_fields[] = {
	SUB_HEAD(enabled),
	{"ProcessorIdLow", FW_FT_U32, 8, 0, 0, NULL},
	{"SiblingMap", FW_FT_BYTES, 12, 32, 0, NULL},
	{"ApuSize", FW_FT_U32, 44, 0, 0, NULL},
};
static const struct fw_layout ccompute = FW_LAYOUT("CCompute affinity", 64, ccompute_fields);

static const struct fw_bitfield link_flag_bits[] = {
	{"Enabled", 0, 1, NULL}, {"NonCoherent", 1, 1, NULL}, {"NoAtomics32", 2, 1, NULL}, {"NoAtomics64", 3, 1, NULL},
	{"NoPeerToPeerDma", 4, 1, NULL}, {"BiDirectional", 31, 1, NULL},
};
static const struct fw_bitfields link_flags = FW_BITFIELDS(link_flag_bits);
static const struct fw_named_value link_types[] = {
	{0, "undefined"}, {1, "HyperTransport"}, {2, "PCI Express"}, {3, "AMBA"}, {4, "MIPI"}, {5, "QPI 1.1"},
	{8, "RapidIO"}, {9, "InfiniBand"}, {11, "xGMI"}, {12, "XGOP"}, {13, "GZ"}, {14, "Ethernet RDMA"},
	{15, "RDMA other"}, {16, "other"}, {0, NULL},
};
static const struct fw_field link_fields[] = {
	SUB_HEAD(link_flags),
	{"ProximityDomainFrom", FW_FT_U32, 8, 0, 0, NULL},
	{"ProximityDomainTo", FW_FT_U32, 12, 0, 0, NULL},
	{"IoInterfaceType", FW_FT_U8, 16, 0, FW_FF_ENUM, link_types},
	{"VersionMajor", FW_FT_U8, 17, 0, 0, NULL},
	{"VersionMinor", FW_FT_U16, 18, 0, 0, NULL},
	{"MinimumLatency", FW_FT_U32, 20, 0, 0, NULL},
	{"MaximumLatency", FW_FT_U32, 24, 0, 0, NULL},
	{"MinimumBandwidthMBs", FW_FT_U32, 28, 0, 0, NULL},
	{"MaximumBandwidthMBs", FW_FT_U32, 32, 0, 0, NULL},
	{"RecommendedTransferSize", FW_FT_U32, 36, 0, 0, NULL},
	{"WeightXgmi", FW_FT_U8, 63, 0, 0, NULL},
};
static const struct fw_layout link = FW_LAYOUT("I/O link affinity", 64, link_fields);

static const struct fw_acpi_subtype types[] = {
	{0, &cu, -1, NULL}, {1, &memory, -1, NULL}, {2, &cache, -1, NULL},
	{3, &tlb, -1, NULL}, {4, &ccompute, -1, NULL}, {5, &link, -1, NULL},
};

static const char *type_name(int64_t type)
{
	static const char *const names[] = {"compute-unit", "memory", "cache", "tlb", "ccompute", "io-link"};
	return type >= 0 && type < 6 ? names[type] : "unknown";
}

/* "0-3 8", the processors a sibling map names, or "none" */
static const char *siblings(const uint8_t *map, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < 256 && k + 12 < len; i++) {
		if (!(map[i / 8] >> (i % 8) & 1) || (i && map[(i - 1) / 8] >> ((i - 1) % 8) & 1))
			continue;
		int j = i;
		while (j + 1 < 256 && map[(j + 1) / 8] >> ((j + 1) % 8) & 1)
			j++;
		k += (size_t)(j > i ? snprintf(buf + k, len - k, "%s%d-%d", k ? " " : "", i, j) : snprintf(buf + k, len - k, "%s%d", k ? " " : "", i));
	}
	return k ? buf : "none";
}

/* Beyond the fields: the kind, the processors of a sibling map, a memory range's end and size. */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_part *p = &t->doc->parts[part];
	const struct fw_acpi_value *v;
	struct fw_acpi_value vr; /* room for v */
	if (!strcmp(name, "TypeName")) {
		out->s = type_name(p->type);
		return true;
	}
	if (!strcmp(name, "Siblings")) {
		if (!(v = fw_acpi_part_value(p, "SiblingMap", &vr)))
			return false;
		out->s = siblings(v->p, out->buf, sizeof(out->buf));
		return true;
	}
	struct fw_acpi_value base_room, size_room;
	const struct fw_acpi_value *base = fw_acpi_part_value(p, "BaseAddress", &base_room), *size = fw_acpi_part_value(p, "MemoryLength", &size_room);
	if (!base || !size)
		return false;
	if (!strcmp(name, "End"))
		out->u = size->u ? base->u + size->u - 1 : base->u;
	else
		out->s = fw_acpi_size_str(size->u, out->buf, sizeof(out->buf));
	return true;
}

#define F(key, name) {key, name, FW_AS_NUMBER, false, NULL}
#define HEAD FW_ACPI_SHOW_SUBTABLE(derive), {"flags", "Flags", FW_AS_FLAGS, false, NULL}
static const struct fw_acpi_show crat_show[] = {F("total_entries", "TotalEntries"), F("domains", "NumDomains")};
static const char *const crat_text[] = {"{TotalEntries} subtables, {NumDomains} domains", NULL};
static const struct fw_acpi_show cu_show[] = {
	HEAD, F("proximity_domain", "ProximityDomain"), F("processor_id_low", "ProcessorIdLow"),
	F("cpu_cores", "NumCpuCores"), F("simd_cores", "NumSimdCores"), F("max_waves_per_simd", "MaxWavesSimd"),
	F("io_count", "IoCount"), {"hsa_capability", "HsaCapability", FW_AS_HEX, false, NULL}, F("lds_size_kib", "LdsSizeKiB"),
	F("wave_front_size", "WaveFrontSize"), F("banks", "NumBanks"), F("micro_engine_id", "MicroEngineId"),
	F("arrays", "ArrayCount"), F("cus_per_array", "NumCuPerArray"), F("simds_per_cu", "NumSimdPerCu"),
	F("max_slots_scratch_cu", "MaxSlotsScratchCu"),
};
static const char *const cu_text[] = {
	"{@offset:@0x%03x} compute unit: domain {ProximityDomain}, {Flags:names}, processor ID low {ProcessorIdLow}",
	"{!NumCpuCores}  {NumCpuCores} CPU cores",
	"{!NumSimdCores}  {NumSimdCores} SIMD cores ({ArrayCount} arrays x {NumCuPerArray} CUs x {NumSimdPerCu} SIMDs), {MaxWavesSimd} "
	"waves per SIMD, wave front {WaveFrontSize}, {LdsSizeKiB} KiB LDS, {IoCount} I/O links, HSA capability {HsaCapability}",
	NULL,
};
static const struct fw_acpi_show memory_show[] = {
	HEAD, F("proximity_domain", "ProximityDomain"), {"base_address", "BaseAddress", FW_AS_HEX, false, NULL},
	{"length", "MemoryLength", FW_AS_HEX, false, NULL}, F("width", "Width"), F("visibility_type", "VisibilityType"),
	{NULL, "End", FW_AS_NUMBER, false, derive}, {NULL, "Size", FW_AS_TEXT, false, derive},
};
static const char *const memory_text[] = {
	"{@offset:@0x%03x} memory: domain {ProximityDomain}, 0x{BaseAddress:%012x}-0x{End:%012x} ({Size}), {Width} bits wide, "
	"{Flags:names}",
	NULL,
};
static const struct fw_acpi_show cache_show[] = {
	HEAD, F("processor_id_low", "ProcessorIdLow"), {"processors", "Siblings", FW_AS_TEXT, false, derive},
	F("size_kib", "CacheSizeKiB"), F("level", "CacheLevel"), F("lines_per_tag", "LinesPerTag"), F("line_size", "CacheLineSize"),
	F("associativity", "Associativity"), {"properties", "CacheProperties", FW_AS_HEX, false, NULL}, F("latency", "CacheLatency"),
};
static const char *const cache_text[] = {
	"{@offset:@0x%03x} cache: level {CacheLevel}, {Flags:names}, {CacheSizeKiB} KiB, {CacheLineSize}-byte lines, "
	"{Associativity}-way, latency {CacheLatency}, processors {Siblings}",
	NULL,
};
static const struct fw_acpi_show tlb_show[] = {
	HEAD, F("processor_id_low", "ProcessorIdLow"), {"processors", "Siblings", FW_AS_TEXT, false, derive}, F("level", "TlbLevel"),
	F("data_2m_associativity", "DataTlbAssociativity2M"), F("data_2m_entries", "DataTlbSize2M"),
	F("instruction_2m_associativity", "InstructionTlbAssociativity2M"), F("instruction_2m_entries", "InstructionTlbSize2M"),
	F("data_4k_associativity", "DataTlbAssociativity4K"), F("data_4k_entries", "DataTlbSize4K"),
	F("instruction_4k_associativity", "InstructionTlbAssociativity4K"), F("instruction_4k_entries", "InstructionTlbSize4K"),
	F("data_1g_associativity", "DataTlbAssociativity1G"), F("data_1g_entries", "DataTlbSize1G"),
	F("instruction_1g_associativity", "InstructionTlbAssociativity1G"), F("instruction_1g_entries", "InstructionTlbSize1G"),
};
static const char *const tlb_text[] = {
	"{@offset:@0x%03x} TLB: level {TlbLevel}, {Flags:names}, processors {Siblings}; entries (associativity) data/instruction: "
	"4K {DataTlbSize4K} ({DataTlbAssociativity4K})/{InstructionTlbSize4K} ({InstructionTlbAssociativity4K}), 2M {DataTlbSize2M} "
	"({DataTlbAssociativity2M})/{InstructionTlbSize2M} ({InstructionTlbAssociativity2M}), 1G {DataTlbSize1G} "
	"({DataTlbAssociativity1G})/{InstructionTlbSize1G} ({InstructionTlbAssociativity1G})",
	NULL,
};
static const struct fw_acpi_show ccompute_show[] = {
	HEAD, F("processor_id_low", "ProcessorIdLow"), {"processors", "Siblings", FW_AS_TEXT, false, derive}, F("apu_size", "ApuSize"),
};
static const char *const ccompute_text[] = {
	"{@offset:@0x%03x} CCompute: {Flags:names}, processors {Siblings}, APU size {ApuSize}", NULL,
};
static const struct fw_acpi_show link_show[] = {
	HEAD, F("from_domain", "ProximityDomainFrom"), F("to_domain", "ProximityDomainTo"),
	{"interface", "IoInterfaceType", FW_AS_NAME, false, NULL}, F("interface_id", "IoInterfaceType"),
	F("version_major", "VersionMajor"), F("version_minor", "VersionMinor"), F("minimum_latency", "MinimumLatency"),
	F("maximum_latency", "MaximumLatency"), F("minimum_bandwidth_mbs", "MinimumBandwidthMBs"),
	F("maximum_bandwidth_mbs", "MaximumBandwidthMBs"), F("recommended_transfer_size", "RecommendedTransferSize"),
	F("xgmi_weight", "WeightXgmi"),
};
static const char *const link_text[] = {
	"{@offset:@0x%03x} I/O link: domain {ProximityDomainFrom} -> {ProximityDomainTo}, {IoInterfaceType:name|unknown interface} "
	"{VersionMajor}.{VersionMinor}, {Flags:names}, latency {MinimumLatency}-{MaximumLatency}, bandwidth "
	"{MinimumBandwidthMBs}-{MaximumBandwidthMBs} MB/s, transfer size {RecommendedTransferSize}, xGMI weight {WeightXgmi}",
	NULL,
};
static const struct fw_acpi_show other_show[] = {FW_ACPI_SHOW_SUBTABLE(derive)};
static const char *const other_text[] = {"{@offset:@0x%03x} type {@type}, {@length} bytes (unknown)", NULL};
static const struct fw_acpi_shape crat_shapes[] = {
	FW_ACPI_SHAPE(&crat, crat_show, crat_text),       FW_ACPI_SHAPE(&cu, cu_show, cu_text),
	FW_ACPI_SHAPE(&memory, memory_show, memory_text), FW_ACPI_SHAPE(&cache, cache_show, cache_text),
	FW_ACPI_SHAPE(&tlb, tlb_show, tlb_text),          FW_ACPI_SHAPE(&ccompute, ccompute_show, ccompute_text),
	FW_ACPI_SHAPE(&link, link_show, link_text),       FW_ACPI_SHAPE(NULL, other_show, other_text),
};
static const struct fw_acpi_view crat_view = FW_ACPI_VIEW(crat_shapes, "subtables");

const struct fw_acpi_layout fw_acpi_crat_table = {
	.fixed = &crat, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"subtable", 1, 1, 1}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]), .view = &crat_view,
};
