/* libxml2, set up on first use (see xml-init.h). */
#include "xml-init.h"

#include <libxml/parser.h>
#include <pthread.h>

static void xml_setup(void)
{
	LIBXML_TEST_VERSION /* also xmlInitParser, which must run once before threads share libxml2 */
}

void fw_xml_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, xml_setup);
}
