/* The dbx release table (see dbx-releases.h). Rows are grouped by the dateOfAddition of the x64
 * entries of PreSignedObjects/DBX/dbx_info_msft_latest.json; the markers of a row are the first,
 * middle and last x64 hash of that date in the file's order, so a dbx that applied the release
 * holds all of them. x64_hashes counts the file's x64 entries dated up to the row's date.
 * The 2024-02-01 row is the certificate revocation the file lists under "certificates"; its
 * marker is the SHA-256 of PreSignedObjects/DBX/Certificates/MicWinProPCA2011_2011-10-19.der. */
#include "dbx-releases.h"

#define REPO "https://github.com/microsoft/secureboot_objects/blob/06fe58a31d2da381fb68c6d9f30af0dfb91cbe3a/"
#define DBX_JSON REPO "PreSignedObjects/DBX/dbx_info_msft_latest.json"
#define DBX_PCA2011 REPO "PreSignedObjects/DBX/Certificates/MicWinProPCA2011_2011-10-19.der"

/* date, what it revokes, critical, x64 hashes by then, markers, source, markers are certificates */
const struct fw_dbx_release fw_dbx_releases[] = {
	{"2018-04-01", "Windows boot managers, shims, shells and a Lenovo loader revoked before 2020", false, 27,
	 {"80b4d96931bf0d02fd91a61e19d14f1da452e66db2408ca8604d411f92659f0a",
	  "2b99cf26422e92fe365fbf4bc30d27086c9ee14b7a6fff44fb2f6b9001699939",
	  "45c7c8ae750acfbb48fc37527d6412dd644daed8913ccd8a24c94d856967df8e"},
	 DBX_JSON, false},
	{"2018-06-01", "Kaspersky disk-encryption loaders", false, 33,
	 {"81d8fb4c9e2e7a8225656b4b8273b7cba4b03ef2e9eb20e0a0291624eca1ba86",
	  "39dbc2288ef44b5f95332cb777e31103e840dba680634aa806f5c9b100061802",
	  "10d45fcba396aef3153ee8f6ecae58afe8476a280a2026fc71f6217dcf49ba2f"},
	 DBX_JSON, false},
	{"2020-07-01", "BootHole: GRUB2 and the shims that load it (CVE-2020-10713 and others)", true, 184,
	 {"c805603c4fa038776e42f263c604b49d96840322e1922d5606a9b0bbb5bffe6f",
	  "3ece27cbb3ec4438cce523b927c4f05fdc5c593a3766db984c5e437a3ff6a16b",
	  "d9668ab52785086786c134b5e4bddbf72452813b6973229ab92aa1a54d201bf5"},
	 DBX_JSON, false},
	{"2021-04-01", "shims loading GRUB2 with the 2021 holes (CVE-2020-14372, CVE-2020-25632 and others)", false, 215,
	 {"040b3bc339e9b6f9acd828b88f3482a5c3f64e67e5a714ba1da8a70453b34af6",
	  "ef87be89a413657de8721498552cf9e0f3c1f71bc62dfa63b9f25bbc66e86494",
	  "af79b14064601bc0987d4747af1e914a228c05d622ceda03b7a4f67014fee767"},
	 DBX_JSON, false},
	{"2022-08-01", "signed loaders that bypass Secure Boot (CVE-2022-34301, CVE-2022-34302, CVE-2022-34303)", false, 222,
	 {"c55be4a2a6ac574a9d46f1e1c54cac29d29dcd7b9040389e7157bb32c4591c4c",
	  "284153e7d04a9f187e5c3dbfe17b2672ad2fbdd119f27bec789417b7919853ec",
	  "ca65a9b2915d9a055a407bc0698936349a04e3db691e178419fba701aad8de55"},
	 DBX_JSON, false},
	{"2023-03-01", "Trend Micro loaders (CVE-2023-28005)", false, 224,
	 {"1788d84aa61ede6f2e96cfc900ad1cab1c5be86537f27212e8c291d6ade3b1e9",
	  "6a0e824654b7479152058cf738a378e629483874b6dbd67e0d8c3327b2fcac64"},
	 DBX_JSON, false},
	{"2023-05-01", "BlackLotus: vulnerable Windows boot managers (CVE-2023-24932)", true, 375,
	 {"1eaed62c4abcb2524643e1723f6aadcc31a74af4d2285d3b13880cc44c22dec5",
	  "a330fde65c067a5f0b75c80d0a300767c301eb75e0cf9b4ee240f0d60b3dc503",
	  "f8f38c4febe9d8e45e71a459c5bff171755c348d5f619f3c6ef30a3f8fd02bd1"},
	 DBX_JSON, false},
	{"2024-02-01", "the Windows Production PCA 2011 certificate (CVE-2023-24932)", false, 375,
	 {"e8e95f0733a55e8bad7be0a1413ee23c51fcea64b3c8fa6a786935fddcc71961"},
	 DBX_PCA2011, true},
	{"2024-03-01", "SecureStar and Lenovo loaders", false, 415,
	 {"bb4919d8f38dba90154f963c47be83b665076c6eb4b230b3cee91e4b7706cc12",
	  "6c611bd22926d8778f0a6b0a095a839d6bbc40d5ad23f55b9f8560647361ffc7",
	  "e427068fba7a44c96515c47e9871798284a06397d4c8687dfdafd0738026ddbb"},
	 DBX_JSON, false},
	{"2024-11-01", "Howyar Technologies ReLoader64_.efi", false, 416,
	 {"cdb7c90d3ab8833d5324f5d8516d41fa990b9ca721fe643fffaef9057d9f9e48"},
	 DBX_JSON, false},
	{"2025-05-07", "DT Research BIOS flash tools", false, 430,
	 {"c54a4060b3a76fa045b7b60eaebc8389780376ba3ef1f63d417ba1b55be3a093",
	  "cda0b4a59390b36e1b654850428cbb5b4c7b5e4349e87acde97fb5437d64d9fc",
	  "6b4328ebcbe46ed9118ff2d4472de329d70ba83016df7a6f50f8af923883bc54"},
	 DBX_JSON, false},
	{"2025-09-02", "an IGEL bootx64.efi", false, 431,
	 {"e14c88dc48339c0555686849a4e3f8986d558e65c4fc863a1a4f1d40478bd47c"},
	 DBX_JSON, false},
	{"2026-04-02", "an EAZ Solutions shdloader.efi", false, 432,
	 {"d013ba511aee89ba3285d1cac0c9f4f21ef4810873c2ebbffe7712bf0be8ced3"},
	 DBX_JSON, false},
	{"2026-04-09", "Spyrus, Red Hat, openSUSE and other shims and loaders", false, 443,
	 {"ae75f0d82ba3df824fbfc69340cc3b4d66c598373b1ab54cdb6c8bfd83a6b961",
	  "95b6d71fc0c0f8c5e1533a37aef92cf6b0c961e2cc612a97117fa6759ce5fc06",
	  "96275dfd6282a522b011177ee049296952ac794832091f937fbbf92869028629"},
	 DBX_JSON, false},
};

const size_t fw_dbx_release_count = sizeof(fw_dbx_releases) / sizeof(fw_dbx_releases[0]);
