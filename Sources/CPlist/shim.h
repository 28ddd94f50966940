// libplist (XML and binary property lists) as Swift sees it; APNSAppBuild is its only importer.
#ifndef CPLIST_SHIM_H
#define CPLIST_SHIM_H
#include <plist/plist.h>
#endif
