<?php /* #?ini charset="utf-8"?

[AliasSettings]
AliasList[]=banner_wide

[banner_wide]
Reference=reference
Filters[]
Filters[]=geometry/scalewidth=1600
Filters[]=strip

[reference]
# keep originals untouched: no filters at all
Filters[]
*/ ?>
