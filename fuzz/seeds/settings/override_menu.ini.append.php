<?php /* #?ini charset="utf-8"?

[SelectedMenu]
CurrentMenu=LeftTop
LeftMenu=flat_left

[TopAdminMenu]
Tabs[]
Tabs[]=content
Tabs[]=media
Tabs[]=users
Tabs[]=setup
Tabs[]=my_account
*/ ?>
