<?php # c
// c
return	ARRAY (
'eZ\'Q'
  =>
	'lib/q.php' , /* c */ ) ;
?>

