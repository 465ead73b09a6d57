/* The security profile's decoders and tables: SMM_ADDR/SMM_MASK into the TSeg range and bits,
 * AGESA PI versions in AMD's order (0-9, then A-Z), the bulletin rows a CPU gets, and the dbx
 * release table's shape. */
#include "harness.h"
#include "tools/host/msr-smm.h"
#include "tools/query/dbx-releases.h"
#include "tools/query/security-minimums.h"

TEST(smm_ranges_decode)
{
	struct fw_smm_ranges s;
	fw_smm_ranges_decode(0xae000000, 0xffffff806002, &s);
	CHECK_EQ(s.tseg_base, 0xae000000);
	CHECK_EQ(s.tseg_size, 8u << 20);
	CHECK(s.tseg_defined && s.tvalid && !s.tclose && !s.avalid && !s.aclose);
	CHECK_EQ(s.tm_type_dram, 6);
	CHECK_STR(fw_smm_memory_type(s.tm_type_dram), "WB");
	/* bits above 47 are not address bits; AValid, AClose, TClose and a 128 KiB TSeg */
	fw_smm_ranges_decode(0xffff0000bffe1234, 0xfffffffffffe000f, &s);
	CHECK_EQ(s.tseg_base, 0xbffe0000);
	CHECK_EQ(s.tseg_size, 0x20000);
	CHECK(s.avalid && s.tvalid && s.aclose && s.tclose);
	CHECK_STR(fw_smm_memory_type(s.tm_type_dram), "UC");
	fw_smm_ranges_decode(0, 0, &s);
	CHECK(!s.tseg_defined && !s.tvalid);
}

TEST(agesa_pi_order)
{
	int cmp;
	CHECK(fw_agesa_pi_compare("TurinPI-SP5 1.0.0.4", "TurinPI 1.0.0.6", &cmp) && cmp < 0);
	CHECK(fw_agesa_pi_compare("TurinPI-SP5 1.0.0.6", "TurinPI 1.0.0.6", &cmp) && cmp == 0);
	CHECK(fw_agesa_pi_compare("MilanPI-SP3 1.0.0.D", "MilanPI 1.0.0.9", &cmp) && cmp > 0);
	CHECK(fw_agesa_pi_compare("MilanPI-SP3 1.0.0.H", "MilanPI 1.0.0.F", &cmp) && cmp > 0);
	CHECK(fw_agesa_pi_compare("GenoaPI-SP5 1.0.0.d", "GenoaPI 1.0.0.E", &cmp) && cmp < 0);
	CHECK(fw_agesa_pi_compare("X 1.0.0.10", "X 1.0.0.Z", &cmp) && cmp > 0);
	CHECK(fw_agesa_pi_compare("X 1.0.1.0", "X 1.0.0.Z", &cmp) && cmp > 0);
	CHECK(!fw_agesa_pi_compare("X 1.0.0", "X 1.0.0.1", &cmp));
	CHECK(!fw_agesa_pi_compare("X 1.0.0.AB", "X 1.0.0.1", &cmp));
	CHECK(!fw_agesa_pi_compare("X 1..0.1", "X 1.0.0.1", &cmp));
	CHECK(fw_agesa_pi_same_line("MilanPI-SP3 1.0.0.D", "MilanPI 1.0.0.H"));
	CHECK(!fw_agesa_pi_same_line("MilanPI-SP3 1.0.0.D", "GenoaPI 1.0.0.E"));
	CHECK(!fw_agesa_pi_same_line("MilanPIX 1.0.0.D", "MilanPI 1.0.0.H"));
}

TEST(security_minimum_rows)
{
	size_t i = 0;
	const struct fw_sec_minimum *m = fw_sec_minimum_next(FW_SEC_MIN_MICROCODE, 0x19, 0x11, 2, &i);
	CHECK(m && m->value == 0x0a10124e);
	CHECK_STR(m->codename, "Genoa-X B2");
	CHECK(!fw_sec_minimum_next(FW_SEC_MIN_MICROCODE, 0x19, 0x11, 2, &i));
	i = 0;
	m = fw_sec_minimum_next(FW_SEC_MIN_SEV_FW, 0x19, 0x01, 1, &i);
	CHECK(m && m->value == FW_SEV_FW_VERSION(1, 55, 22));
	i = 0;
	size_t n = 0;
	while (fw_sec_minimum_next(FW_SEC_MIN_AGESA_PI, 0x19, 0x01, 2, &i))
		n++;
	CHECK_EQ(n, 3); /* AMD-SB-3015, -3019 and -3020 for Milan */
	i = 0;
	CHECK(!fw_sec_minimum_next(FW_SEC_MIN_SEV_FW, 0x17, 0x31, 0, &i));
	for (size_t k = 0; k < fw_sec_minimum_count; k++)
		CHECK(fw_sec_minimums[k].bulletin && fw_sec_minimums[k].source &&
		      (fw_sec_minimums[k].kind != FW_SEC_MIN_AGESA_PI || fw_sec_minimums[k].pi));
}

TEST(dbx_release_table)
{
	CHECK_EQ(fw_dbx_release_count, 14);
	unsigned last = 0;
	for (size_t k = 0; k < fw_dbx_release_count; k++) {
		const struct fw_dbx_release *r = &fw_dbx_releases[k];
		CHECK_MSG(r->x64_hashes >= last, "%s: %u hashes after %u", r->date, r->x64_hashes, last);
		last = r->x64_hashes;
		CHECK(r->markers[0]);
		for (size_t m = 0; m < FW_DBX_MARKERS && r->markers[m]; m++) {
			CHECK_EQ(strlen(r->markers[m]), 64);
			CHECK_EQ(strspn(r->markers[m], "0123456789abcdef"), 64);
		}
		if (k)
			CHECK_MSG(strcmp(fw_dbx_releases[k - 1].date, r->date) < 0, "%s not after %s", r->date,
				  fw_dbx_releases[k - 1].date);
	}
	CHECK_EQ(last, 443);
}
