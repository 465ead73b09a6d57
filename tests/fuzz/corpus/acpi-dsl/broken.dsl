}}} Scope (^^^X) { Device (TOOLONGNAME) { Name (_PXM, 1) } }
Method (A) { Return (B ()) } Method (B) { Return (A ()) } { { {