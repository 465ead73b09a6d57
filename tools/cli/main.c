#include <libxml/parser.h>

#include "cli.h"

int main(int argc, char **argv)
{
	LIBXML_TEST_VERSION
	int rc = fw_cli_main(argc, argv);
	xmlCleanupParser();
	return rc;
}
