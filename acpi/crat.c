/* CRAT, AMD's Component Resource Attribute Table: the HSA view of the machine's NUMA topology
 * (compute units, memory, caches, TLBs and the links between proximity domains), the same
 * topology SRAT/SLIT give from the ACPI side. ACPICA does not decode it; the layouts are those
 * the Linux amdkfd driver reads (drivers/gpu/drm/amd/amdkfd, CRAT subtypes 0-5). */
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

const struct fw_acpi_layout fw_acpi_crat_table = {
	.fixed = &crat, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"subtable", 1, 1, 1}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]),
};
